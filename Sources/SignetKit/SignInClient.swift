import Foundation
import SignetClientCore
import SignetCrypto
import SignetJOSE
import SignetWire

/// The native-app side of OpenID Connect: authorization code flow with PKCE (RFC 7636, RFC 8252),
/// callback checks including RFC 9207 `iss`, ID-token validation (OIDC Core §3.1.3.7), token
/// storage, refresh and sign-out.
///
/// ```swift
/// let client = try await SignInClient.discover(
///     ClientConfiguration(issuer: "https://id.example.com", clientID: "my-app", redirectURI: "http://127.0.0.1/callback"),
///     storage: storage)
/// let listener = try LoopbackListener()
/// let request = try client.beginSignIn(redirectURI: listener.redirectURI)
/// ExternalBrowser().open(request.authorizationURL)
/// let callback = try await listener.waitForCallback(timeout: 300, accepting: request.isAddressed)
/// let session = try await client.completeSignIn(callback: callback)
/// let token = try await session.freshAccessToken()
/// ```
public final class SignInClient: Sendable {
    /// The app's configuration.
    public let configuration: ClientConfiguration
    /// The server's configuration (from discovery).
    public let provider: ProviderConfiguration
    /// Where tokens and the pending sign-in live.
    public let storage: any TokenStorage
    let http: OutboundHTTP
    let keys: JWKSCache
    let tokenClient: TokenClient
    let clock: @Sendable () -> Date
    let registered: RedirectURI

    /// A client for an already-discovered provider.
    ///
    /// - Throws: `.invalidRedirectURI` when the redirect URI breaks RFC 8252's rules.
    public init(configuration: ClientConfiguration, provider: ProviderConfiguration, storage: any TokenStorage,
                http: OutboundHTTP = OutboundHTTP(), clock: @escaping @Sendable () -> Date = { Date() }) throws(SignInError) {
        guard provider.metadata.issuer == configuration.issuer else {
            throw .issuerMismatch(expected: configuration.issuer, found: provider.metadata.issuer)
        }
        guard let tokenEndpoint = provider.metadata.tokenEndpoint else { throw .discoveryFailed("no token_endpoint") }
        do {
            registered = try RedirectURI(registering: configuration.redirectURI)
        } catch {
            throw .invalidRedirectURI(error.message)
        }
        self.configuration = configuration
        self.provider = provider
        self.storage = storage
        self.http = http
        self.clock = clock
        self.keys = JWKSCache(jwksURI: provider.metadata.jwksURI, http: http, clock: clock)
        self.tokenClient = TokenClient(tokenEndpoint: tokenEndpoint, clientID: configuration.clientID,
                                       authentication: configuration.clientAuthentication, http: http)
    }

    /// Discovers the provider (issuer checked exactly) and creates a client.
    public static func discover(_ configuration: ClientConfiguration, storage: any TokenStorage,
                                http: OutboundHTTP = OutboundHTTP(),
                                clock: @escaping @Sendable () -> Date = { Date() }) async throws(SignInError) -> SignInClient {
        let provider = try await ProviderConfiguration.discover(issuer: configuration.issuer, http: http)
        return try SignInClient(configuration: configuration, provider: provider, storage: storage, http: http, clock: clock)
    }

    // MARK: - Sign-in

    /// Starts a sign-in: new PKCE verifier, `state` and `nonce` (32 bytes each from the CSPRNG),
    /// saved in storage as the pending sign-in (replacing any earlier one), and the authorization URL.
    ///
    /// - Parameters:
    ///   - redirectURI: the URI to send; defaults to the registered one. For a loopback
    ///     registration pass the listener's `redirectURI` (the port is the only part that may differ).
    ///   - organization: the id (`org_…`) or slug of the organization to sign in for: the request
    ///     then asks for scope `organization` with `organization=`, and the tokens carry `org_id`,
    ///     `org_slug` and `org_roles` (docs/organizations.md). Nil: with `organization` among the
    ///     configuration's scopes, a user in several organizations picks one on Signet's page.
    ///   - extraParameters: more authorization parameters (`prompt`, `login_hint`, …); the
    ///     protocol parameters cannot be overridden.
    public func beginSignIn(redirectURI: String? = nil, organization: String? = nil,
                            extraParameters: [(String, String)] = []) throws(SignInError) -> SignInRequest {
        let redirect = redirectURI ?? configuration.redirectURI
        guard registered.matches(redirect) else {
            throw .invalidRedirectURI("\(redirect) does not match the registered \(configuration.redirectURI)")
        }
        let pkce = PKCEPair.generate()
        let now = clock()
        let pending = PendingSignIn(codeVerifier: pkce.verifier, state: RandomToken.make(), nonce: RandomToken.make(),
                                    redirectURI: redirect, createdAt: now,
                                    expiresAt: now.addingTimeInterval(configuration.pendingSignInLifetime))
        let pairs = authorizationParameters(pending, codeChallenge: pkce.challenge, organization: organization,
                                            extraParameters: extraParameters)
        let endpoint = provider.metadata.authorizationEndpoint.absoluteString
        let separator = endpoint.contains("?") ? "&" : "?"
        guard let url = URL(string: endpoint + separator + QueryEncoding.encode(pairs)) else {
            throw .discoveryFailed("the authorization endpoint is not a URL")
        }
        try save(pending, as: pendingKey)
        return SignInRequest(authorizationURL: url, pending: pending)
    }

    /// An authorization request's parameters (RFC 6749 §4.1.1, RFC 7636 §4.3) for `pending`;
    /// `extraParameters` cannot override the protocol's own. `organization` adds scope
    /// `organization` (if the configuration lacks it) and the `organization` parameter.
    func authorizationParameters(_ pending: PendingSignIn, codeChallenge: String, organization: String? = nil,
                                 extraParameters: [(String, String)]) -> [(String, String)] {
        var scopes = configuration.scopes
        if organization != nil, !scopes.contains("organization") { scopes.append("organization") }
        var pairs: [(String, String)] = [
            ("response_type", "code"), ("client_id", configuration.clientID), ("redirect_uri", pending.redirectURI),
            ("scope", scopes.joined(separator: " ")), ("state", pending.state), ("nonce", pending.nonce),
            ("code_challenge", codeChallenge), ("code_challenge_method", "S256"),
        ] + configuration.resources.map { ("resource", $0) }
        if let organization { pairs.append(("organization", organization)) }
        let reserved = Set(pairs.map(\.0))
        pairs += extraParameters.filter { !reserved.contains($0.0) }
        return pairs
    }

    /// The sign-in waiting for its callback, if any and not expired (after a relaunch too).
    public func pendingSignIn() -> PendingSignIn? {
        guard let pending: PendingSignIn = try? load(pendingKey), pending.expiresAt > clock() else { return nil }
        return pending
    }

    /// Forgets the pending sign-in (the user cancelled): a later callback is refused.
    public func cancelSignIn() {
        try? storage.remove(pendingKey)
    }

    /// Completes the pending sign-in with the callback URL the browser delivered.
    ///
    /// Checks the callback (`AuthorizationCallback.validate`), removes the pending sign-in (so a
    /// second callback finds none), exchanges the code with the PKCE verifier, validates the ID
    /// token (signature via the JWKS, `iss`, `aud`, `azp`, `exp`, `iat`, `nonce`, `at_hash`),
    /// saves the tokens and returns the session.
    ///
    /// A callback with a wrong `state`, `iss` or address leaves the pending sign-in in place: it
    /// may be forged, and the real callback can still arrive.
    public func completeSignIn(callback: URL) async throws(SignInError) -> AuthState {
        guard let pending: PendingSignIn = try load(pendingKey) else { throw .noPendingSignIn }
        guard pending.expiresAt > clock() else {
            cancelSignIn()
            throw .pendingSignInExpired
        }
        let validated: AuthorizationCallback
        do throws(SignInError) {
            validated = try AuthorizationCallback.validate(callback, pending: pending, issuer: configuration.issuer,
                                                           issuerParameterRequired: provider.issuerParameterSupported)
        } catch {
            if error.code == .authorizationError { cancelSignIn() }   // a genuine answer: this sign-in is over
            throw error
        }
        // Single use: whatever happens next, this pending sign-in is spent.
        cancelSignIn()
        let response: TokenResponse
        do {
            response = try await tokenClient.exchangeCode(validated.code, redirectURI: pending.redirectURI,
                                                          codeVerifier: pending.codeVerifier)
        } catch {
            throw Self.map(error)
        }
        let tokens = try await makeTokens(from: response, nonce: pending.nonce, previous: nil)
        try save(tokens, as: tokensKey)
        return await session(with: tokens)
    }

    /// The saved session, if any (after a relaunch). Every call (and every client on the same
    /// storage) returns the same `AuthState` while someone holds it, so refreshes coalesce.
    public func restoreSession() -> AuthState? {
        guard let tokens: StoredTokens = try? load(tokensKey) else { return nil }
        return SessionRegistry.shared.state(for: sessionKey) { AuthState(tokens: tokens, backend: Backend(client: self)) }.state
    }

    /// The shared state for this stored session, holding `tokens` (a new sign-in, already saved).
    func session(with tokens: StoredTokens) async -> AuthState {
        let (state, existed) = SessionRegistry.shared.state(for: sessionKey) { AuthState(tokens: tokens, backend: Backend(client: self)) }
        if existed { await state.replace(with: tokens) }
        return state
    }

    /// The registry key of this client's stored session: the storage's identity and the key.
    var sessionKey: String? { storage.storageIdentity.map { $0 + "\n" + tokensKey } }

    /// The whole desktop flow: listener, browser, callback, exchange.
    ///
    /// - Parameter open: shows the authorization URL (e.g. `ExternalBrowser().open`, or printing it).
    /// - Parameter organization: the organization to sign in for, as in `beginSignIn`.
    public func signIn(with listener: LoopbackListener, timeout: TimeInterval = 300, organization: String? = nil,
                       extraParameters: [(String, String)] = [],
                       open: @Sendable (URL) -> Void) async throws(SignInError) -> AuthState {
        let request = try beginSignIn(redirectURI: listener.redirectURI, organization: organization, extraParameters: extraParameters)
        open(request.authorizationURL)
        let callback = try await listener.receiveCallback(timeout: timeout, accepting: { request.isAddressed($0) })
        // The browser learns the real outcome: "Signed in" only once the exchange succeeded.
        do {
            let session = try await completeSignIn(callback: callback.url)
            callback.respond(.signedIn)
            return session
        } catch {
            callback.respond(.forSignIn(error))
            throw error
        }
    }

    /// Starts an RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2): the end-session
    /// URL with `id_token_hint`, `client_id`, `post_logout_redirect_uri` and a new `state`.
    ///
    /// - Throws: `.endSessionUnavailable` when the server advertises no `end_session_endpoint`.
    public func beginLogout(idTokenHint: String?, postLogoutRedirectURI: String) throws(SignInError) -> LogoutRequest {
        let state = RandomToken.make()
        guard let url = endSessionURL(idTokenHint: idTokenHint, postLogoutRedirectURI: postLogoutRedirectURI, state: state) else {
            throw .endSessionUnavailable
        }
        return LogoutRequest(url: url, state: state, postLogoutRedirectURI: postLogoutRedirectURI)
    }

    /// The desktop logout: opens the end-session URL with the listener's address as
    /// `post_logout_redirect_uri` (it must be registered exactly so, port included: Signet
    /// applies no loopback port exception to it), waits for the redirect, checks its `state`,
    /// and shows "Signed out". Call `AuthState.signOut()` first for the tokens.
    ///
    /// - Throws: `.endSessionUnavailable`; `.timedOut`, `.cancelled` from the listener. A
    ///   redirect with another `state` is refused (400) and the listener keeps waiting.
    public func endSession(idTokenHint: String?, with listener: LoopbackListener, timeout: TimeInterval = 300,
                           open: @Sendable (URL) -> Void) async throws(SignInError) {
        let request = try beginLogout(idTokenHint: idTokenHint, postLogoutRedirectURI: listener.redirectURI)
        open(request.url)
        let callback = try await listener.receiveCallback(timeout: timeout, accepting: { request.isAddressed($0) })
        callback.respond(.signedOut)
    }

    /// The RP-initiated logout URL (OpenID Connect RP-Initiated Logout 1.0 §2) with
    /// `id_token_hint`, or nil when the server has no end-session endpoint.
    public func endSessionURL(idTokenHint: String?, postLogoutRedirectURI: String? = nil, state: String? = nil) -> URL? {
        guard let endpoint = provider.metadata.endSessionEndpoint else { return nil }
        var pairs: [(String, String)] = [("client_id", configuration.clientID)]
        if let idTokenHint { pairs.append(("id_token_hint", idTokenHint)) }
        if let postLogoutRedirectURI { pairs.append(("post_logout_redirect_uri", postLogoutRedirectURI)) }
        if let state { pairs.append(("state", state)) }
        let text = endpoint.absoluteString
        return URL(string: text + (text.contains("?") ? "&" : "?") + QueryEncoding.encode(pairs))
    }
}
