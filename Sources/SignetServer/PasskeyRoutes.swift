import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

extension Routes {
    /// Options for a passkey sign-in on the sign-in page (JSON; form fields `request`, `csrf`).
    public static let passkeySignInOptions = "/passkeys/signin/options"
    /// The browser's `AuthenticationResponseJSON` (JSON): signs in, answers `{"location"}`.
    public static let passkeySignInFinish = "/passkeys/signin/finish"
    /// Options to register a passkey for the signed-in user (JSON; form field `csrf`).
    public static let passkeyRegisterOptions = "/passkeys/register/options"
    /// The browser's `RegistrationResponseJSON` (JSON): stores the passkey.
    public static let passkeyRegisterFinish = "/passkeys/register/finish"
    /// After a password sign-in: the offer to add a passkey, and its continue / not-now form.
    public static let passkeyOffer = "/passkeys/offer"
    /// The signed-in user's passkeys: list, rename, remove.
    public static let accountPasskeys = "/account/passkeys"
    /// Rename one (form: `csrf`, `id`, `name`).
    public static let accountPasskeysRename = "/account/passkeys/rename"
    /// Remove one (form: `csrf`, `id`).
    public static let accountPasskeysRemove = "/account/passkeys/remove"
}

/// The passkey endpoints and pages (docs/passkeys.md): the JSON ceremonies of the sign-in page
/// and of registration, the offer after a password sign-in, `/account/passkeys`, the script.
struct PasskeyRoutes: Sendable {
    let interactive: InteractiveRoutes
    let ceremonies: PasskeyCeremonies

    init(application: SignetApplication, interactive: InteractiveRoutes) {
        self.interactive = interactive
        self.ceremonies = PasskeyCeremonies(server: application.authorizationServer, configuration: application.environment.configuration,
                                            mail: application.environment.mail)
    }

    /// The CSRF purpose of every registration and management form: bound to the session too.
    static func purpose(_ session: ActiveSession) -> String { "passkeys:" + session.publicID }

    /// The signed-in browser's session, or nil.
    func session(_ request: HTTPRequest) throws -> ActiveSession? {
        try interactive.flow.sessions.active(token: interactive.sessionToken(request))
    }

    /// The binding of a sign-in ceremony: the browser's CSRF cookie value.
    func signInBinding(_ request: HTTPRequest) -> [UInt8]? {
        guard let value = request.cookies[interactive.csrfCookieName], interactive.csrf.isBrowserValue(value) else { return nil }
        return ceremonies.binding("signin", value)
    }

    /// The binding of a registration ceremony: the session.
    func registrationBinding(_ session: ActiveSession) -> [UInt8] { ceremonies.binding("register", session.publicID) }

    /// A finish body: JSON only (a cross-site form cannot send `application/json` without a
    /// preflight this server never answers), within SignetWebAuthn's 64 KiB.
    static func jsonBody(_ request: HTTPRequest) throws(OAuthError) -> [UInt8] {
        let type = request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/json" else { throw OAuthError.invalidRequest("The body must be application/json.").telling(PasskeyErrorText.malformed) }
        return request.body
    }

    // MARK: sign-in

    /// `POST /passkeys/signin/options`: a discoverable-credential challenge for a pending request.
    func signInOptions(_ request: HTTPRequest, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request), let handle = try form.single("request") else {
            throw OAuthError.invalidRequest("The form is malformed.").telling(PasskeyErrorText.malformed)
        }
        guard interactive.csrfValid(request, field: try form.single("csrf"), purpose: handle), let binding = signInBinding(request) else {
            throw OAuthError(.accessDenied, "The form could not be verified. Make sure cookies are enabled.").telling(PasskeyErrorText.formNotVerified)
        }
        if let limited = try rateLimited(request, errors) { return limited }
        return try Self.mapped("passkey sign-in options") {
            _ = try interactive.flow.pending(handle: handle)
            return OAuthResponses.json(try ceremonies.assertionOptions(binding: binding, context: handle))
        }
    }

    /// `POST /passkeys/signin/finish`: verifies the assertion, starts a session with the passkey's
    /// `amr` and continues the pending request; answers where the browser goes next.
    func signInFinish(_ request: HTTPRequest, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse {
        let body = try Self.jsonBody(request)
        guard let binding = signInBinding(request) else {
            throw OAuthError(.accessDenied, "The passkey challenge was issued to another session.").telling(PasskeyErrorText.otherSession)
        }
        return try Self.mapped("passkey sign-in") {
            let signedIn = try ceremonies.finishAssertion(body, binding: binding)
            let pending = try interactive.flow.pending(handle: signedIn.context)
            // RFC 8176 §2: "hwk"/"swk" (proof of a hardware- or software-held key) and "user"
            // (the required user verification); never "pwd". The gate refuses an account of an
            // `sso_required` domain (JSON, no session).
            let event = SignInEvent(user: signedIn.user, amr: signedIn.amr, way: .passkey)
            var held: HTTPResponse?
            let step = try interactive.signedIn(request, pending, event, errors) { decision in
                let answer = interactive.heldJSON(decision, event: event, client: pending.client.id, errors)
                held = answer
                return answer
            }
            if let held { return held }
            var response = OAuthResponses.json(["location": .string(step.headers["Location"] ?? Routes.signIn)])
            for cookie in step.headers.values("Set-Cookie") { response.headers.add("Set-Cookie", cookie) }
            return response
        }
    }

    // MARK: registration

    /// `POST /passkeys/register/options`: a creation challenge for the signed-in user.
    func registerOptions(_ request: HTTPRequest, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse {
        let signedIn = try Self.mapped("passkey registration options") { () throws -> ActiveSession in
            guard let session = try self.session(request) else { throw OAuthError(.loginRequired, "Sign in first.").telling(PasskeyErrorText.signInFirst) }
            guard let form = InteractiveRoutes.formFields(request),
                  interactive.csrfValid(request, field: try form.single("csrf"), purpose: Self.purpose(session)) else {
                throw OAuthError(.accessDenied, "The form could not be verified. Make sure cookies are enabled.").telling(PasskeyErrorText.formNotVerified)
            }
            // The ceremony is bound to this session and lives no longer than the window, so the
            // freshness checked here carries to the finish.
            guard try FreshSignIn(server: interactive.server).verdict(session) == .fresh else {
                throw OAuthError(.loginRequired, "Adding a passkey needs a sign-in in the last \(Int(FreshSignIn.maximumAge / 60)) minutes at the account's level.")
                    .telling(PasskeyErrorText.signInAgain)
            }
            return session
        }
        if let limited = try rateLimited(request, errors) { return limited }
        return try Self.mapped("passkey registration options") {
            OAuthResponses.json(try ceremonies.registrationOptions(user: signedIn.user, binding: registrationBinding(signedIn), context: ""))
        }
    }

    /// `POST /passkeys/register/finish`: verifies the attestation, stores the passkey and mails the notice.
    func registerFinish(_ request: HTTPRequest, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse {
        let body = try Self.jsonBody(request)
        return try Self.mapped("passkey registration") {
            guard let session = try session(request) else { throw OAuthError(.loginRequired, "Sign in first.").telling(PasskeyErrorText.signInFirst) }
            let stored = try ceremonies.finishRegistration(body, binding: registrationBinding(session), name: "", language: errors.page.language)
            return OAuthResponses.json(["id": .string(Base64URL.encode(stored.id)), "name": .string(stored.name)])
        }
    }

    /// 429 with `Retry-After` (RFC 6585 §4) when the client address has asked for too many
    /// challenges in the last minute (`passkeys.options_per_minute`); nil when it may ask.
    func rateLimited(_ request: HTTPRequest, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse? {
        guard try !Self.mapped("passkey rate limit", { try ceremonies.admit(clientAddress: request.clientKey) }) else { return nil }
        return errors.render(OAuthError(.temporarilyUnavailable, "Too many passkey requests from this network; try again in a minute.")
                                .telling(PasskeyErrorText.tooManyRequests),
                             status: 429, retryAfter: PasskeyCeremonies.rateWindow)
    }

    /// Runs a handler's body: its `OAuthError`s as they are, a pending request that is gone as
    /// `invalid_request`, anything else (a store that failed) as `server_error` with `context`.
    static func mapped<T>(_ context: String, _ body: () throws -> T) throws(OAuthError) -> T {
        do { return try body() } catch let error as OAuthError {
            throw error
        } catch is FlowError {
            throw OAuthError.invalidRequest("This sign-in request has expired or was already used.").telling(PasskeyErrorText.requestGone)
        } catch {
            throw .serverError(detail: "\(context): \(error)")
        }
    }

    /// The script asset's route.
    static func script(_ request: HTTPRequest) -> HTTPResponse { PasskeyScript.response() }
}
