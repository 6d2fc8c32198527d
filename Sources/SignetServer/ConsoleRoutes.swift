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
/// public issuer as the built-in confidential `ConsoleClient` (code + PKCE, redeemed here), and the
/// access token it gets is the console's session: kept in a short HttpOnly cookie (`__Host-` over
/// https) and checked on every request by the admin API's own `AdminAuthorizer`, which lets it use
/// only the scopes the operator's role (`OperatorRole`) grants now. Every form carries a CSRF
/// field bound to the browser's cookie and the operator; every change goes through
/// `AdminService` under the scope of the admin API operation that makes it.
struct ConsoleRoutes: Sendable {
    let authorizer: AdminAuthorizer
    let service: AdminService
    let environment: ServerEnvironment
    /// The console's code redemption and sign-out at the issuer, as `ConsoleClient`.
    let oauth: ConsoleOAuthClient
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
        authorizer = application.adminAuthorizer()
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
    var tokenCookie: String { SetCookie.hostPrefixed("signet_console", secure: secure) }
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
        /// The browser-binding cookie to set, when the browser had none.
        let csrfCookie: SetCookie?

        func may(_ operation: String) -> Bool { principal.may(ConsoleRoutes.scope(operation)) }
    }

    enum Refusal: Error {
        /// No console session (none, expired, or not a console token): sign in.
        case signIn
        /// Signed in, but the account holds no role (or is gone or disabled).
        case noRole
        case failed(any Error)
    }

    /// The operator of `request`'s console cookie, or why there is none.
    func signedIn(_ request: HTTPRequest) -> Result<Operator, Refusal> {
        guard let token = request.cookies[tokenCookie], !token.isEmpty else { return .failure(.signIn) }
        let principal: AdminPrincipal
        do { principal = try authorizer.authenticate(token) } catch {
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
            var cookie: SetCookie?
            var browser = request.cookies[csrfCookie] ?? ""
            if !csrf.isBrowserValue(browser) {
                browser = csrf.newBrowserValue()
                cookie = SetCookie(name: csrfCookie, value: browser, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
            }
            return .success(Operator(principal: principal, email: user.email, role: role,
                                     csrf: csrf.token(browserValue: browser, purpose: Self.purpose(principal)),
                                     service: acting, csrfCookie: cookie))
        } catch {
            return .failure(.failed(error))
        }
    }

    /// The CSRF purpose of the console's forms: bound to the operator.
    static func purpose(_ principal: AdminPrincipal) -> String { "console:" + principal.actor }

    /// A console page (GET): without a session, the sign-in; without a role, the refusal.
    func page(_ request: HTTPRequest, _ errors: ErrorRenderer,
              _ body: (Operator) throws -> HTTPResponse) -> HTTPResponse {
        switch signedIn(request) {
        case .failure(.signIn): return startSignIn()
        case .failure(.noRole): return noRole(errors)
        case .failure(.failed(let error)): return errors.internalError("console", error)
        case .success(let op):
            do {
                var response = try body(op)
                if let cookie = op.csrfCookie { response.setCookie(cookie) }
                return response
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
        guard csrf.verify(token: try? form.single("csrf"), browserValue: request.cookies[csrfCookie], purpose: Self.purpose(op.principal)) else {
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
    /// asking for the admin scopes and the admin audience (RFC 8707); the state and the verifier
    /// wait in a cookie scoped to the callback.
    func startSignIn() -> HTTPResponse {
        let random = environment.random
        let state = Base64URL.encode(random.bytes(16))
        let verifier = Base64URL.encode(random.bytes(32))
        let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        let parameters = [("response_type", "code"), ("client_id", ConsoleClient.id), ("redirect_uri", base + Self.callback),
                          ("scope", ([Scope.openID] + AdminRoutes.scopes).joined(separator: " ")), ("state", state),
                          ("code_challenge", challenge), ("code_challenge_method", "S256"),
                          ("resource", AdminAuthorizer.audience(issuer: issuer))]
        let authorize = (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + Routes.authorize
        var response = HTTPResponse.redirect(to: authorize + "?" + FormEncoding.encode(parameters), status: 303)
        HTMLPage.harden(&response)
        // Lax: the callback is a top-level navigation back from the issuer.
        response.setCookie(SetCookie(name: loginCookie, value: state + "." + verifier, path: Self.callback, maxAge: 600,
                                     secure: secure, httpOnly: true, sameSite: .lax))
        return response
    }

    /// `GET /console/callback`: checks the state against the cookie, redeems the code with the
    /// verifier and the client's secret at the token endpoint (in process), and keeps the access
    /// token as the console's session when its operator holds a role.
    func signInCallback(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let page = errors.page
        let incomplete = {
            errors.render(OAuthError(.accessDenied, "The console sign-in did not complete."), status: 400,
                          title: page.text(ConsoleText.signInIncompleteTitle), message: page.text(ConsoleText.signInIncomplete))
        }
        guard let saved = request.cookies[loginCookie], let dot = saved.firstIndex(of: ".") else { return incomplete() }
        let state = String(saved[..<dot]), verifier = String(saved[saved.index(after: dot)...])
        // RFC 6749 §10.12: the state must be the one this browser sent.
        guard request.query.first("error") == nil, let code = request.query.first("code"), let returned = request.query.first("state"),
              constantTimeEquals(Array(returned.utf8), Array(state.utf8)) else { return incomplete() }
        let token: TokenResponse
        do throws(OAuthError) { token = try oauth.redeem(code: code, redirectURI: base + Self.callback, verifier: verifier) } catch { return incomplete() }
        var response: HTTPResponse
        do {
            let principal = try authorizer.authenticate(token.accessToken)
            guard principal.userID != nil else { return incomplete() }
            response = InteractiveRoutes.local(Self.home)
            // Lax, not Strict: this answer ends a redirect chain from the issuer, which may be
            // another site (a tunnel's 127.0.0.1), and a Strict cookie would not come along on
            // its redirect to /console. Cross-site posts still carry no cookie, and every form
            // has its CSRF field.
            response.setCookie(SetCookie(name: tokenCookie, value: token.accessToken, path: "/", maxAge: token.expiresIn,
                                         secure: secure, httpOnly: true, sameSite: .lax))
        } catch where error.error == "no_role" {
            response = noRole(errors)
        } catch {
            return incomplete()
        }
        response.setCookie(cleared(loginCookie, path: Self.callback))
        return response
    }

    /// `POST /console/signout`: revokes the console's token at the issuer, as its client would at
    /// `/revoke` (RFC 7009 §2.1; the grant family goes, so the token is refused everywhere from
    /// now on), forgets its cookie and shows the signed-out page.
    func signOutSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        if case .success(let op) = signedIn(request), let token = request.cookies[tokenCookie] {
            guard csrf.verify(token: try? form.single("csrf"), browserValue: request.cookies[csrfCookie], purpose: Self.purpose(op.principal)) else {
                return errors.csrfFailure()
            }
            do throws(OAuthError) {
                try oauth.revoke(accessToken: token)
            } catch {
                return errors.render(error)
            }
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
