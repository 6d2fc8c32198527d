import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetStore
import SignetWire

/// The account page (`/account`): a signed-in person sees and changes their profile and password,
/// their linked providers, sessions and apps, and can delete the account. Every form posts with
/// a CSRF field bound to the browser's cookie and to this session; every answer is a 303 back to
/// the page with a notice, or a page. Without a session the browser is sent through the ordinary
/// `/authorize` flow of the built-in `AccountClient`, which returns to `/account/callback`.
struct AccountRoutes: Sendable {
    let interactive: InteractiveRoutes
    let users: UserService
    let deletion: AccountDeletion
    /// The sign-up policy, which a new address must meet too.
    let accounts: SignetConfiguration.Accounts
    var storage: any SignetStorage { interactive.server.storage }
    var clock: any Clock { interactive.server.clock }

    /// How long after a sign-in a person without a password may delete the account.
    static let freshSignInMinutes = Int(FreshSignIn.maximumAge / 60)

    init(application: SignetApplication, interactive: InteractiveRoutes) {
        self.interactive = interactive
        self.users = application.environment.makeUserService()
        self.deletion = AccountDeletion(environment: application.environment, federation: application.federation)
        self.accounts = application.environment.configuration.accounts
    }

    // MARK: session and forms

    /// The browser's usable session (its idle timeout restarted), or nil.
    func session(_ request: HTTPRequest) throws -> ActiveSession? {
        guard let active = try interactive.flow.sessions.active(token: interactive.sessionToken(request)) else { return nil }
        return try interactive.flow.sessions.touch(active)
    }

    /// The CSRF purpose of the account forms: bound to the session, so a field is good for it only.
    static func purpose(_ session: ActiveSession) -> String { "account:" + session.publicID }

    /// A 303 to `/authorize` for the account client: the ordinary sign-in, back to the page.
    /// `prompt=login` asks for a fresh sign-in even with a session (OpenID Connect Core §3.1.2.1).
    /// `callbackPath` is one of the client's redirect URIs; `loginHint` fills the sign-in form.
    /// `returnTo` is the page the callback opens (carried in `state`, a fixed key and random bytes).
    static func startSignIn(_ interactive: InteractiveRoutes, freshLogin: Bool, callbackPath: String = AccountClient.callbackPath,
                            loginHint: String? = nil, returnTo: AccountReturn = .account) -> HTTPResponse {
        // The code is never redeemed (the session cookie is what the page needs), so the PKCE
        // verifier is not kept: the challenge only has to be well formed (RFC 7636 §4.2).
        let random = interactive.server.random
        var parameters = [("response_type", "code"), ("client_id", AccountClient.id),
                          ("redirect_uri", interactive.issuer + callbackPath), ("scope", Scope.openID),
                          ("state", returnTo.rawValue + "." + Base64URL.encode(random.bytes(16))),
                          ("code_challenge", Base64URL.encode(random.bytes(32))), ("code_challenge_method", "S256")]
        if freshLogin { parameters.append(("prompt", "login")) }
        if let loginHint { parameters.append(("login_hint", loginHint)) }
        return InteractiveRoutes.local(Routes.authorize, parameters)
    }

    func startSignIn(freshLogin: Bool) -> HTTPResponse { Self.startSignIn(interactive, freshLogin: freshLogin) }

    /// What every account form POST checks first: a form body, a session (else 401), the CSRF
    /// field (else 403). Then `body` runs with the session and the fields.
    func submission(_ request: HTTPRequest, _ errors: ErrorRenderer,
                    _ body: (ActiveSession, RequestParameters) throws -> HTTPResponse) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        do {
            guard let session = try session(request) else { return notSignedIn(errors) }
            guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: Self.purpose(session)) else {
                return errors.csrfFailure()
            }
            return try body(session, form)
        } catch {
            return errors.internalError("account", error)
        }
    }

    func notSignedIn(_ errors: ErrorRenderer) -> HTTPResponse {
        errors.render(OAuthError(.accessDenied, errors.page.text(AccountPageText.notSignedIn)), status: 401,
                      title: errors.page.text(AccountPageText.notSignedInTitle))
    }

    /// Back to the page with a notice (a fixed key, never the request's text).
    static func back(_ notice: AccountNotice) -> HTTPResponse {
        InteractiveRoutes.local(Routes.account, [("notice", notice.rawValue)])
    }

    // MARK: GET

    /// `GET /account`: the page, or the sign-in when there is no session.
    func page(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        do {
            guard let session = try session(request) else { return startSignIn(freshLogin: false) }
            let browser = interactive.browserValue(request)
            let csrf = interactive.csrf.token(browserValue: browser.value, purpose: Self.purpose(session))
            let notice = request.query.first("notice").flatMap(AccountNotice.init(rawValue:))
            return HTMLPage.response(errors.page, title: errors.page.text(AccountPageText.title),
                                     body: try render(session, csrf: csrf, notice: notice, page: errors.page), cookie: browser.cookie)
        } catch {
            return errors.internalError("account page", error)
        }
    }

    /// `GET /account/callback`: the account client's redirect URI. The sign-in has set the
    /// session cookie; the code is left to expire unredeemed.
    func callback(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        if request.query.first("error") != nil {
            let body = "<p>\(HTMLPage.escape(errors.page.text(AccountPageText.signInIncomplete)))</p>\n<p><a href=\"\(Routes.account)\">\(HTMLPage.escape(errors.page.text(AccountPageText.openAccountPage)))</a></p>"
            return HTMLPage.response(errors.page, title: errors.page.text(AccountPageText.signInIncompleteTitle), body: body)
        }
        return InteractiveRoutes.local(AccountReturn(state: request.query.first("state")).path)
    }

    /// `GET /account/reauth[?next=passkeys]`: a fresh sign-in (for deleting an account without a
    /// password, changing its email, adding a passkey), back to the page `next` names.
    func reauthenticate(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        Self.startSignIn(interactive, freshLogin: true, returnTo: request.query.first("next").flatMap(AccountReturn.init(rawValue:)) ?? .account)
    }

    /// Whether the session's sign-in is recent enough to delete without a password.
    func isFresh(_ session: ActiveSession) -> Bool {
        clock.now.timeIntervalSince(session.record.authTime) <= FreshSignIn.maximumAge
    }
}

/// The pages a sign-in started by the account pages comes back to: a fixed list, so the
/// callback's `state` can never send the browser anywhere else.
enum AccountReturn: String, Sendable {
    case account, passkeys

    /// The key at the start of a callback's `state`; `.account` for anything else.
    init(state: String?) {
        let key = state?.split(separator: ".", maxSplits: 1).first.map(String.init)
        self = key.flatMap(AccountReturn.init(rawValue:)) ?? .account
    }

    /// The page's path.
    var path: String {
        switch self {
        case .account: Routes.account
        case .passkeys: Routes.accountPasskeys
        }
    }
}

/// The notices the account page shows after an action; the query carries only these keys.
enum AccountNotice: String, Sendable {
    case nameSaved = "name-saved", nameTooLong = "name-too-long"
    case passwordChanged = "password-changed", wrongPassword = "wrong-password"
    case unlinked, cannotUnlinkLast = "cannot-unlink-last"
    case sessionEnded = "session-ended", otherSessionsEnded = "other-sessions-ended"
    case revoked, notFound = "not-found", deleteNeedsFreshSignIn = "delete-needs-fresh-sign-in"
    case invalidPassword = "invalid-password"
    case emailInvalid = "email-invalid", emailUnchanged = "email-unchanged", emailDomainRefused = "email-domain-refused"
    case emailNeedsFreshSignIn = "email-needs-fresh-sign-in", emailChanged = "email-changed"
    case emailManaged = "email-managed", emailGovernedDomain = "email-governed-domain"

    /// The notice of a refusal of `UserService.emailChangeRefusal`.
    init(_ refusal: EmailChangeRefusal) {
        switch refusal {
        case .leavesGovernedDomain: self = .emailManaged
        case .entersGovernedDomain: self = .emailGovernedDomain
        }
    }

    /// The notice in the page's language.
    func text(_ page: PageContext) -> String {
        switch self {
        case .nameSaved: page.text(AccountPageText.nameSaved)
        case .nameTooLong: page.text(AccountPageText.nameTooLong)
        case .passwordChanged: page.text(AccountPageText.passwordChanged)
        case .wrongPassword: page.text(AccountPageText.wrongPassword)
        case .unlinked: page.text(AccountPageText.unlinked)
        case .cannotUnlinkLast: page.text(AccountPageText.cannotUnlinkLast)
        case .sessionEnded: page.text(AccountPageText.sessionEnded)
        case .otherSessionsEnded: page.text(AccountPageText.otherSessionsEnded)
        case .revoked: page.text(AccountPageText.revoked)
        case .notFound: page.text(AccountPageText.notFound)
        case .deleteNeedsFreshSignIn: page.text(AccountPageText.deleteNeedsFreshSignIn)
        case .invalidPassword: page.text(AccountPageText.invalidPassword, page.text(AccountPageText.passwordRules))
        case .emailInvalid: page.text(EmailChangeText.invalidEmail)
        case .emailUnchanged: page.text(EmailChangeText.unchanged)
        case .emailDomainRefused: page.text(EmailChangeText.domainRefused)
        case .emailNeedsFreshSignIn: page.text(EmailChangeText.needsFreshSignIn)
        case .emailChanged: page.text(EmailChangeText.changed)
        case .emailManaged: page.text(EmailChangeText.managedByOrganization)
        case .emailGovernedDomain: page.text(EmailChangeText.governedDomain)
        }
    }

    /// Whether the notice reports a refusal (shown as an alert).
    var isError: Bool {
        switch self {
        case .nameTooLong, .wrongPassword, .cannotUnlinkLast, .notFound, .deleteNeedsFreshSignIn, .invalidPassword,
             .emailInvalid, .emailUnchanged, .emailDomainRefused, .emailNeedsFreshSignIn, .emailManaged, .emailGovernedDomain: true
        default: false
        }
    }
}
