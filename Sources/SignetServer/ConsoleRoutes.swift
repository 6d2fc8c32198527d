import Foundation
import SignetCore
import SignetFederation
import SignetCrypto
import SignetHTTP
import SignetStore
import SignetWire

/// The console and developer portal: server-rendered pages on the admin listener (`/console`),
/// in the sign-in pages' look, under the pages' CSP (the app form adds only its same-origin
/// script, `ConsoleAssets`). An operator signs in through the ordinary `/authorize` flow of the
/// public issuer as the built-in confidential `ConsoleClient` (code + PKCE, redeemed here, the
/// state bound to the browser's pre-login cookie), and the sign-in becomes a server-side session
/// (`ConsoleSessions`): the HttpOnly, SameSite=Strict cookie (`__Host-` over https) holds an opaque
/// handle that counts only beside that browser cookie and is no API credential. Each request asks
/// the admin API's own `AdminAuthorizer` what the operator may do: only the scopes the operator's
/// role (`OperatorRole`) grants now. Every form carries a CSRF field bound to the browser's cookie
/// and the operator; every change goes through `AdminService` under the scope of the admin API
/// operation that makes it.
struct ConsoleRoutes: Sendable {
    let service: AdminService
    let environment: ServerEnvironment
    /// The console's code redemption at the issuer, as `ConsoleClient`.
    let oauth: ConsoleOAuthClient
    /// The signed-in operators, on the server.
    let sessions: ConsoleSessions
    let metrics: ServerMetrics
    let connections: [Connection]
    let csrf: CSRFTokens
    let issuer: String
    /// The console's base URL as browsers reach it (no trailing slash).
    let base: String

    static let home = "/console"
    static let callback = ConsoleClient.callbackPath
    static let signOut = "/console/signout"
    static let apps = "/console/apps"
    static let newApp = "/console/apps/new"
    static let app = "/console/apps/{id}"
    static let appDelete = "/console/apps/{id}/delete"
    static let appSecret = "/console/apps/{id}/secret"
    static let users = "/console/users"
    static let user = "/console/users/{id}"
    static let userAction = "/console/users/{id}/{action}"
    static let userItem = "/console/users/{id}/{kind}/{item}"
    static let connectionsPage = "/console/connections"
    static let keys = "/console/keys"
    static let keysRotate = "/console/keys/rotate"
    static let audit = "/console/audit"

    init(application: SignetApplication, base: String) {
        sessions = ConsoleSessions(application: application, authorizer: application.adminAuthorizer())
        service = AdminService(environment: application.environment, federation: application.federation)
        environment = application.environment
        oauth = ConsoleOAuthClient(application: application)
        metrics = application.metrics
        connections = application.federation.connections
        csrf = CSRFTokens(key: application.environment.masterKey.browserKey, random: application.environment.random)
        issuer = application.issuer
        self.base = base
    }

    /// Served over https: cookies get `Secure` and the `__Host-` prefix (RFC 6265bis §4.1.3.2).
    var secure: Bool { base.hasPrefix("https://") }
    /// The session's handle (`ConsoleSessions`).
    var tokenCookie: String { SetCookie.hostPrefixed("signet_console", secure: secure) }
    /// The browser's own random value, set before the sign-in: the login's state, the session and
    /// every CSRF field are bound to it.
    var csrfCookie: String { SetCookie.hostPrefixed("signet_console_csrf", secure: secure) }
    /// Scoped to the callback's path, so `__Secure-` (a `__Host-` cookie must have `Path=/`).
    var loginCookie: String { secure ? "__Secure-signet_console_login" : "signet_console_login" }

    /// The scope of the admin API operation `id`: the console asks the same question the API does.
    /// An operation the list lacks needs a scope no token has (fail closed).
    static func scope(_ id: String) -> String {
        AdminRoutes.operations.first { $0.operationID == id }?.scope ?? "admin:unknown-operation"
    }

    // MARK: the signed-in operator

    /// A signed-in operator: who, what it may do, its CSRF field and the service acting as it.
    struct Operator {
        let principal: AdminPrincipal
        let email: String
        let role: OperatorRole?
        let csrf: String
        let service: AdminService

        func may(_ operation: String) -> Bool { principal.may(ConsoleRoutes.scope(operation)) }
    }

    enum Refusal: Error {
        /// No console session (none, expired, ended, or not with its browser's cookie): sign in.
        case signIn
        /// Signed in, but the account holds no role (or is gone or disabled).
        case noRole
        case failed(any Error)
    }

    /// The operator of `request`'s console session, or why there is none.
    func signedIn(_ request: HTTPRequest) -> Result<Operator, Refusal> {
        let principal: AdminPrincipal
        let browser: String
        do throws(AdminError) {
            let session = try sessions.session(handle: request.cookies[tokenCookie], binding: request.cookies[csrfCookie])
            browser = request.cookies[csrfCookie] ?? ""
            principal = try sessions.principal(session)
        } catch {
            switch error.error {
            case "no_role": return .failure(.noRole)
            case "server_error": return .failure(.failed(error))
            default: return .failure(.signIn)
            }
        }
        guard let userID = principal.userID else { return .failure(.signIn) }
        do {
            guard let user = try environment.storage.users.user(id: userID) else { return .failure(.signIn) }
            let acting = service.acting(as: principal)
            let role = try acting.operatorRole(user)
            return .success(Operator(principal: principal, email: user.email, role: role,
                                     csrf: csrf.token(browserValue: browser, purpose: Self.purpose(principal.actor)),
                                     service: acting))
        } catch {
            return .failure(.failed(error))
        }
    }

    /// The CSRF purpose of the console's forms: bound to the operator (its audit actor).
    static func purpose(_ actor: String) -> String { "console:" + actor }

    /// A console page (GET): without a session, the sign-in; without a role, the refusal.
    func page(_ request: HTTPRequest, _ errors: ErrorRenderer,
              _ body: (Operator) throws -> HTTPResponse) -> HTTPResponse {
        switch signedIn(request) {
        case .failure(.signIn): return startSignIn(request)
        case .failure(.noRole): return noRole(errors)
        case .failure(.failed(let error)): return errors.internalError("console", error)
        case .success(let op):
            do {
                return try body(op)
            } catch let error as AdminError where error.status == 404 {
                return errors.render(OAuthError(.invalidRequest, error.message), status: 404,
                                     title: errors.page.text(ConsoleText.notFoundTitle), message: errors.page.text(ConsoleText.notFound))
            } catch {
                return errors.internalError("console", error)
            }
        }
    }

    /// A console form (POST): a form body, a session (401), a role (403), the CSRF field (403),
    /// then the scope of the admin operation `operation` (403), before `body` runs.
    func submit(_ request: HTTPRequest, _ errors: ErrorRenderer, operation: String,
                _ body: (Operator, RequestParameters) throws -> HTTPResponse) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        let op: Operator
        switch signedIn(request) {
        case .failure(.signIn):
            return errors.render(OAuthError(.accessDenied, "No console session."), status: 401,
                                 title: errors.page.text(ConsoleText.signedOutTitle), message: errors.page.text(ConsoleText.sessionEnded))
        case .failure(.noRole): return noRole(errors)
        case .failure(.failed(let error)): return errors.internalError("console", error)
        case .success(let found): op = found
        }
        guard csrf.verify(token: try? form.single("csrf"), browserValue: request.cookies[csrfCookie], purpose: Self.purpose(op.principal.actor)) else {
            return errors.csrfFailure()
        }
        guard op.may(operation) else {
            return errors.render(OAuthError(.accessDenied, "The operator's role lacks \(Self.scope(operation))."), status: 403,
                                 title: errors.page.text(ConsoleText.notAllowedTitle),
                                 message: errors.page.text(ConsoleText.notAllowed, Self.scope(operation)))
        }
        do {
            return try body(op, form)
        } catch let error as AdminError where error.status == 404 {
            return errors.render(OAuthError(.invalidRequest, error.message), status: 404,
                                 title: errors.page.text(ConsoleText.notFoundTitle), message: errors.page.text(ConsoleText.notFound))
        } catch {
            return errors.internalError("console", error)
        }
    }

    func noRole(_ errors: ErrorRenderer) -> HTTPResponse {
        errors.render(OAuthError(.accessDenied, "This account has no console role."), status: 403,
                      title: errors.page.text(ConsoleText.noRoleTitle), message: errors.page.text(ConsoleText.noRole))
    }

    // MARK: sign-in

    /// A 303 to the public issuer's `/authorize` for the console client (code + PKCE, RFC 7636),
    /// asking for the admin scopes and the admin audience (RFC 8707). The state is the browser
    /// cookie's keyed binding to a fresh nonce (set first when the browser has none), and the
    /// nonce and the verifier wait in a cookie scoped to the callback: a callback is taken only
    /// in the browser that started it (login CSRF, RFC 6749 §10.12).
    func startSignIn(_ request: HTTPRequest) -> HTTPResponse {
        let random = environment.random
        var browser = request.cookies[csrfCookie] ?? ""
        let fresh = !csrf.isBrowserValue(browser)
        if fresh { browser = csrf.newBrowserValue() }
        let nonce = Base64URL.encode(random.bytes(16))
        let verifier = Base64URL.encode(random.bytes(32))
        let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        let parameters = [("response_type", "code"), ("client_id", ConsoleClient.id), ("redirect_uri", base + Self.callback),
                          ("scope", ([Scope.openID] + AdminRoutes.scopes).joined(separator: " ")),
                          ("state", Self.loginState(csrf, browser: browser, nonce: nonce)),
                          ("code_challenge", challenge), ("code_challenge_method", "S256"),
                          ("resource", AdminAuthorizer.audience(issuer: issuer))]
        let authorize = (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + Routes.authorize
        var response = HTTPResponse.redirect(to: authorize + "?" + FormEncoding.encode(parameters), status: 303)
        HTMLPage.harden(&response)
        // Lax: the callback is a top-level navigation back from the issuer, which may be another site.
        if fresh { response.setCookie(SetCookie(name: csrfCookie, value: browser, path: "/", secure: secure, httpOnly: true, sameSite: .lax)) }
        response.setCookie(SetCookie(name: loginCookie, value: nonce + "." + verifier, path: Self.callback, maxAge: 600,
                                     secure: secure, httpOnly: true, sameSite: .lax))
        return response
    }

    /// The sign-in's `state`: the browser cookie bound to the sign-in's nonce under the browser key.
    static func loginState(_ csrf: CSRFTokens, browser: String, nonce: String) -> String {
        csrf.token(browserValue: browser, purpose: "console-login:" + nonce)
    }

    /// `GET /console/callback`: checks the state against this browser's cookies, redeems the code
    /// with the verifier and the client's secret at the token endpoint (in process), and starts a
    /// console session when its operator holds a role. The access token is dropped there.
    func signInCallback(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let page = errors.page
        let incomplete = {
            errors.render(OAuthError(.accessDenied, "The console sign-in did not complete."), status: 400,
                          title: page.text(ConsoleText.signInIncompleteTitle), message: page.text(ConsoleText.signInIncomplete))
        }
        guard let browser = request.cookies[csrfCookie], csrf.isBrowserValue(browser),
              let saved = request.cookies[loginCookie], let dot = saved.firstIndex(of: ".") else { return incomplete() }
        let nonce = String(saved[..<dot]), verifier = String(saved[saved.index(after: dot)...])
        // RFC 6749 §10.12: the state must be the one this browser's sign-in sent.
        let state = Self.loginState(csrf, browser: browser, nonce: nonce)
        guard request.query.first("error") == nil, let code = request.query.first("code"), let returned = request.query.first("state"),
              constantTimeEquals(Array(returned.utf8), Array(state.utf8)) else { return incomplete() }
        let token: TokenResponse
        do throws(OAuthError) { token = try oauth.redeem(code: code, redirectURI: base + Self.callback, verifier: verifier) } catch { return incomplete() }
        var response: HTTPResponse
        do throws(AdminError) {
            let handle = try sessions.start(accessToken: token.accessToken, binding: browser)
            response = signedInPage(page)
            // Strict: no cross-site request carries the session. This answer may end a redirect
            // chain from another site (an https issuer, a tunnel's 127.0.0.1), on which a Strict
            // cookie would not come along, so the page moves on to /console itself.
            response.setCookie(SetCookie(name: tokenCookie, value: handle, path: "/", maxAge: ConsoleSessions.lifetime,
                                         secure: secure, httpOnly: true, sameSite: .strict))
        } catch where error.error == "no_role" {
            response = noRole(errors)
        } catch {
            return incomplete()
        }
        response.setCookie(cleared(loginCookie, path: Self.callback))
        return response
    }

    /// The answer to a completed sign-in: a same-origin page that opens the console at once
    /// (`Refresh`, as the document's own navigation), with a link for a browser that does not.
    func signedInPage(_ page: PageContext) -> HTTPResponse {
        let body = "<p><a id=\"open-console\" href=\"\(Self.home)\">\(HTMLPage.escape(page.text(ConsoleText.openConsole)))</a></p>\n"
        var response = HTMLPage.response(page, title: page.text(ConsoleText.signedInTitle), body: body)
        response.headers.set("Refresh", "0; url=\(Self.home)")
        return response
    }

    /// `POST /console/signout`: with the session's CSRF field, deletes the session and revokes its
    /// sign-in's grant (`ConsoleSessions.end`), forgets its cookie and shows the signed-out page.
    /// Without a session there is nothing to end; an operator whose role is gone may sign out too.
    func signOutSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        if let session = try? sessions.session(handle: request.cookies[tokenCookie], binding: request.cookies[csrfCookie]) {
            guard csrf.verify(token: try? form.single("csrf"), browserValue: request.cookies[csrfCookie],
                              purpose: Self.purpose("console:" + session.userID)) else {
                return errors.csrfFailure()
            }
            do { try sessions.end(session) } catch { return errors.internalError("console", error) }
        }
        let page = errors.page
        let body = "<p>\(HTMLPage.escape(page.text(ConsoleText.signedOut)))</p>\n<p><a href=\"\(Self.home)\">\(HTMLPage.escape(page.text(ConsoleText.signInAgain)))</a></p>\n"
        var response = HTMLPage.response(page, title: page.text(ConsoleText.signedOutTitle), body: body)
        response.setCookie(cleared(tokenCookie, path: "/"))
        return response
    }

    func cleared(_ name: String, path: String) -> SetCookie {
        SetCookie(name: name, value: "", path: path, maxAge: 0, expires: Date(timeIntervalSince1970: 0), secure: secure, httpOnly: true, sameSite: .lax)
    }

    // MARK: layout

    /// The console's sections, for the navigation.
    enum Section: CaseIterable {
        case dashboard, apps, users, orgs, connections, keys, audit

        var path: String {
            switch self {
            case .dashboard: ConsoleRoutes.home
            case .apps: ConsoleRoutes.apps
            case .users: ConsoleRoutes.users
            case .orgs: ConsoleRoutes.orgs
            case .connections: ConsoleRoutes.connectionsPage
            case .keys: ConsoleRoutes.keys
            case .audit: ConsoleRoutes.audit
            }
        }

        var title: ConsoleText {
            switch self {
            case .dashboard: .dashboardTitle
            case .apps: .appsTitle
            case .users: .usersTitle
            case .orgs: .orgsTitle
            case .connections: .connectionsTitle
            case .keys: .keysTitle
            case .audit: .auditTitle
            }
        }
    }

    /// A console page: the navigation (the current section marked), who is signed in with a
    /// sign-out form, `body`, and the console's stylesheet; `script` adds the console script.
    func render(_ op: Operator, _ page: PageContext, section: Section, title: String, body: String,
                status: Int = 200, script: Bool = false) -> HTTPResponse {
        var html = "<link rel=\"stylesheet\" href=\"\(ConsoleAssets.stylesheetPath)\">\n<nav class=\"console\" aria-label=\"\(esc(page.text(ConsoleText.navigation)))\">\n"
        for item in Section.allCases {
            let current = item == section ? " aria-current=\"page\"" : ""
            html += "<a href=\"\(item.path)\"\(current)>\(esc(page.text(item.title)))</a>\n"
        }
        html += "</nav>\n<div class=\"operator\"><span class=\"muted\">"
            + page.html(ConsoleText.signedInAs, "<strong>\(esc(op.email))</strong>", esc(op.role.map { page.text($0 == .admin ? ConsoleText.roleAdmin : ConsoleText.roleViewer) } ?? ""))
            + "</span>\n<form method=\"post\" action=\"\(Self.signOut)\">" + HTMLPage.hidden("csrf", op.csrf)
            + "<button type=\"submit\" class=\"link\">\(esc(page.text(ConsoleText.signOut)))</button></form></div>\n"
        html += body
        if script { html += ConsoleAssets.scriptTag + "\n" }
        var response = HTMLPage.response(page, title: title, body: html, status: status)
        if script { ConsoleAssets.allowScript(&response) }
        return response
    }

    /// A form posting to `action` with the CSRF field, `fields` and one button.
    static func form(_ action: String, _ op: Operator, _ fields: String, button: String, secondary: Bool = false, danger: Bool = false) -> String {
        let kind = danger ? " class=\"danger\"" : secondary ? " class=\"secondary\"" : ""
        return "<form method=\"post\" action=\"\(HTMLPage.escape(action))\">\n" + HTMLPage.hidden("csrf", op.csrf) + "\n" + fields
            + "<button type=\"submit\"\(kind)>\(HTMLPage.escape(button))</button>\n</form>\n"
    }

    /// `path` with its `{id}` replaced by `id`, percent-encoded.
    static func path(_ pattern: String, _ id: String, action: String? = nil) -> String {
        var result = pattern.replacingOccurrences(of: "{id}", with: FormEncoding.encodeComponent(id))
        if let action { result = result.replacingOccurrences(of: "{action}", with: action) }
        return result
    }

    /// A 303 back to a console page with a notice key (never the request's text).
    static func back(_ path: String, _ notice: String) -> HTTPResponse {
        InteractiveRoutes.local(path, [("notice", notice)])
    }

    /// The notice a page shows after a redirect, from the fixed set of `ConsoleNotice`.
    static func notice(_ request: HTTPRequest, _ page: PageContext) -> String {
        guard let key = request.query.first("notice"), let notice = ConsoleNotice(rawValue: key) else { return "" }
        return "<p class=\"notice\" role=\"status\">\(HTMLPage.escape(page.text(notice.text)))</p>\n"
    }
}

/// The notices console pages show after a change; the query carries only these keys.
enum ConsoleNotice: String {
    case appSaved = "app-saved", appDeleted = "app-deleted", userDisabled = "user-disabled", userEnabled = "user-enabled"
    case userDeleted = "user-deleted", userRevoked = "user-revoked", keysRotated = "keys-rotated"
    case deleteNotConfirmed = "delete-not-confirmed", mfaReset = "mfa-reset", itemEnded = "ended"
    case orgCreated = "org-created", memberAdded = "member-added", invitationSent = "invitation-sent", domainClaimed = "domain-claimed"
    case orgSaved = "org-saved"

    var text: ConsoleText {
        switch self {
        case .appSaved: .noticeAppSaved
        case .appDeleted: .noticeAppDeleted
        case .userDisabled: .noticeUserDisabled
        case .userEnabled: .noticeUserEnabled
        case .userDeleted: .noticeUserDeleted
        case .userRevoked: .noticeUserRevoked
        case .keysRotated: .noticeKeysRotated
        case .deleteNotConfirmed: .noticeDeleteNotConfirmed
        case .mfaReset: .noticeMFAReset
        case .itemEnded: .noticeItemEnded
        case .orgCreated: .noticeOrgCreated
        case .memberAdded: .noticeMemberAdded
        case .invitationSent: .noticeInvitationSent
        case .domainClaimed: .noticeDomainClaimed
        case .orgSaved: .noticeOrgSaved
        }
    }
}
