import Foundation
import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

/// The browser-facing endpoints: `/authorize`, the sign-in and consent pages, and end-session.
/// Adapters only: each parses the request, calls SignetCore, and renders the result.
struct InteractiveRoutes: Sendable {
    let server: AuthorizationServer
    let flow: AuthorizationFlow
    let signIn: SignInService
    let csrf: CSRFTokens
    let endpoint: AuthorizationEndpoint
    let endSession: EndSessionEndpoint
    let issuer: String
    /// Served over https: cookies get `Secure` and the `__Host-` prefix.
    let secure: Bool
    /// Upstream connections: sign-in buttons and home-realm discovery.
    let federation: Federation
    /// Sign-up, recovery and email sign-in settings (the sign-in page's links).
    let accounts: SignetConfiguration.Accounts
    /// Email challenges and their mail (a verification asked for at sign-in).
    let mailer: ChallengeMailer
    /// The email typed into a failed sign-in, kept for the form shown again.
    let typedEmail: SignInEmail
    /// Home-realm discovery and `sso_required` (organizations' governed domains).
    let domains: DomainGovernance

    init(application: SignetApplication) {
        let server = application.authorizationServer
        let environment = application.environment
        self.server = server
        self.flow = AuthorizationFlow(server: server, gate: application.signInGate)
        let users = environment.makeUserService()
        self.signIn = SignInService(server: server, users: users, hashKey: environment.masterKey.tokenHashKey)
        self.csrf = CSRFTokens(key: environment.masterKey.browserKey, random: environment.random)
        self.endpoint = AuthorizationEndpoint(clients: server.clients) { [server] hint, clientID in
            server.subjectOfIDTokenHint(hint, clientID: clientID)
        }
        self.endSession = EndSessionEndpoint(server: server)
        self.issuer = application.issuer
        self.secure = application.issuer.lowercased().hasPrefix("https://")
        self.federation = application.federation
        self.accounts = environment.configuration.accounts
        self.mailer = ChallengeMailer(environment: environment, issuer: application.issuer)
        self.typedEmail = SignInEmail(browserKey: environment.masterKey.browserKey, secure: secure)
        self.domains = application.domainGovernance
    }

    // MARK: cookies

    /// The SSO session cookie's name.
    var sessionCookieName: String { SetCookie.hostPrefixed("signet_session", secure: secure) }
    /// The CSRF browser-binding cookie's name.
    var csrfCookieName: String { SetCookie.hostPrefixed("signet_csrf", secure: secure) }

    func sessionToken(_ request: HTTPRequest) -> String? { request.cookies[sessionCookieName] }

    func sessionCookie(_ token: String) -> SetCookie {
        SetCookie(name: sessionCookieName, value: token, path: "/", maxAge: server.policy.sessionAbsolute,
                  secure: secure, httpOnly: true, sameSite: .lax)
    }

    func clearedCookie(_ name: String) -> SetCookie {
        SetCookie(name: name, value: "", path: "/", maxAge: 0, expires: Date(timeIntervalSince1970: 0),
                  secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// The browser's CSRF value, and the cookie to set when it has none yet.
    func browserValue(_ request: HTTPRequest) -> (value: String, cookie: SetCookie?) {
        if let existing = request.cookies[csrfCookieName], csrf.isBrowserValue(existing) { return (existing, nil) }
        let value = csrf.newBrowserValue()
        return (value, SetCookie(name: csrfCookieName, value: value, path: "/", secure: secure, httpOnly: true, sameSite: .lax))
    }

    /// The browser's CSRF value as its cookie holds it (nil when it has none): what a
    /// second-factor challenge is bound to.
    func sessionBrowser(_ request: HTTPRequest) -> String? {
        request.cookies[csrfCookieName].flatMap { csrf.isBrowserValue($0) ? $0 : nil }
    }

    /// Whether a POST's hidden field matches the browser's cookie for `purpose`.
    func csrfValid(_ request: HTTPRequest, field: String?, purpose: String) -> Bool {
        csrf.verify(token: field, browserValue: request.cookies[csrfCookieName], purpose: purpose)
    }

    // MARK: responses

    /// A 303 within Signet (relative, so it works behind any proxy), hardened.
    static func local(_ path: String, _ parameters: [(String, String)] = []) -> HTTPResponse {
        var location = path
        if !parameters.isEmpty { location += "?" + FormEncoding.encode(parameters) }
        var response = HTTPResponse.redirect(to: location, status: 303)
        HTMLPage.harden(&response)
        return response
    }

    /// The response for a flow step: the code or the error to the client's verified redirect
    /// URI (the error through `errors`, an `.authorization` route's renderer), or a local 303.
    func respond(_ step: FlowStep, _ errors: ErrorRenderer) -> HTTPResponse {
        switch step {
        case .code(let code, let redirectURI, let state):
            return OAuthResponses.redirect(to: VerifiedRedirect(flowStepURI: redirectURI, state: state), parameters: [("code", code)],
                                           issuer: issuer)
        case .error(let error, let redirectURI, let state):
            return errors.render(error, redirect: VerifiedRedirect(flowStepURI: redirectURI, state: state))
        case .signIn(let handle):
            return Self.local(Routes.signIn, [("request", handle)])
        case .consent(let handle):
            return Self.local(Routes.consent, [("request", handle)])
        case .secondFactor(let handle):
            return Self.local(Routes.secondFactor, [("challenge", handle)])
        case .enrolSecondFactor(let handle):
            return Self.local(Routes.secondFactorSetup, [("challenge", handle)])
        case .passkeyOffer(let handle):
            return Self.local(Routes.passkeyOffer, [("request", handle)])
        case .pickOrganization(let handle):
            return Self.local(Routes.organizationPicker, [("request", handle)])
        }
    }

    /// A form POST's fields, or nil when the body is not form encoding.
    static func formFields(_ request: HTTPRequest) -> RequestParameters? {
        guard let form = try? request.form() else { return nil }
        return RequestParameters(form.pairs)
    }
}
