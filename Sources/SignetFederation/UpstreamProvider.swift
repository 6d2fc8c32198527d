import Foundation
import SignetClientCore
import SignetJOSE
import SignetWire
import Synchronization

/// Signet as a client of one upstream provider: builds the authorization URL of a provider
/// transaction, and turns the callback's code into a checked `UpstreamIdentity`.
///
/// Every outbound call goes through `OutboundHTTP` (no redirects followed, time and size limits).
/// OpenID providers are configured from their discovery document (cached for `metadataLifetime`);
/// their ID tokens are checked by `IDTokenValidator` against the provider's JWKS (`JWKSCache`:
/// an unknown `kid` refetches at most once per `jwksRefetchInterval`, never a fallback key).
/// GitHub is OAuth only: the user comes from `GET /user`, the email from `GET /user/emails`.
/// A generic `oidc` connection also reads the userinfo endpoint when the ID token lacks the
/// email, and picks its token-endpoint authentication from the discovery document unless configured.
public final class UpstreamProvider: Sendable {
    /// The connection.
    public let connection: Connection
    /// Signet's redirect URI at this provider: `{issuer}/oauth2/callback/{id}`.
    public let callbackURL: String
    let credentials: ConnectionCredentials
    let http: OutboundHTTP
    let clock: @Sendable () -> Date
    let jwksRefetchInterval: TimeInterval
    let metadataLifetime: TimeInterval
    let appleSecret: AppleClientSecret?
    private let cache = Mutex<Cache>(Cache())
    private let observed = Mutex<UpstreamStatus>(UpstreamStatus())
    /// Boxed, as `SQLTimings` keeps its observer: a closure read out of the generic `Mutex`
    /// storage would be re-wrapped in a reabstraction thunk each time.
    private final class StepObserverBox: Sendable {
        let call: StepObserver
        init(_ call: @escaping StepObserver) { self.call = call }
    }
    private let stepObserver = Mutex<StepObserverBox?>(nil)

    /// Told `(step, seconds, failed)` after each provider step: `authorize` (the authorization
    /// URL, with discovery when not cached), `callback` (the code exchange and the identity's
    /// checks) or `revoke`. The step names are this fixed set, so they can label metrics.
    public typealias StepObserver = @Sendable (_ step: String, _ seconds: Double, _ failed: Bool) -> Void

    /// Sends every later step's duration and outcome to `observer` (replacing any earlier one).
    public func observeSteps(_ observer: @escaping StepObserver) {
        let box = StepObserverBox(observer)
        stepObserver.withLock { $0 = box }
    }

    private struct Cache {
        var metadata: ProviderMetadata?
        var fetchedAt: Date?
        var jwks: JWKSCache?
    }

    /// GitHub's fixed endpoints.
    static let gitHubAuthorize = "https://github.com/login/oauth/authorize"
    static let gitHubToken = "https://github.com/login/oauth/access_token"
    static let gitHubAPI = "https://api.github.com"

    /// Creates the provider client. For Apple, the p8 key is loaded now (a bad key fails start-up).
    public init(connection: Connection, credentials: ConnectionCredentials, callbackURL: String, http: OutboundHTTP,
                clock: @escaping @Sendable () -> Date = { Date() }, jwksRefetchInterval: TimeInterval = 60,
                metadataLifetime: TimeInterval = 3600) throws(FederationError) {
        self.connection = connection
        self.credentials = credentials
        self.callbackURL = callbackURL
        self.http = http
        self.clock = clock
        self.jwksRefetchInterval = jwksRefetchInterval
        self.metadataLifetime = metadataLifetime
        if connection.type == .apple {
            guard let team = connection.appleTeamID, let key = connection.appleKeyID, let pem = credentials.applePrivateKeyPEM else {
                throw .misconfigured("apple connection \(connection.id) needs team_id, key_id and private_key")
            }
            appleSecret = try AppleClientSecret(teamID: team, keyID: key, clientID: connection.clientID, privateKeyPEM: pem, clock: clock)
        } else {
            appleSecret = nil
        }
    }

    /// What this node saw of the provider's last steps (`UpstreamStatus`).
    public var status: UpstreamStatus { observed.withLock { $0 } }

    /// `body`, with its outcome kept as the provider's status and told to the step observer.
    func tracked<T>(_ step: String, _ body: () async throws(FederationError) -> T) async throws(FederationError) -> T {
        let started = DispatchTime.now()
        let report = stepObserver.withLock { $0 }
        func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9 }
        do throws(FederationError) {
            let value = try await body()
            report?.call(step, seconds(), false)
            let now = clock()
            observed.withLock { status in
                status.lastSuccessAt = now
                status.isFailing = false
            }
            return value
        } catch {
            report?.call(step, seconds(), true)
            let now = clock()
            observed.withLock { status in
                status.lastFailureAt = now
                status.lastError = error
                status.isFailing = true
            }
            throw error
        }
    }

    // MARK: metadata

    /// The provider's discovery document (cached). GitHub has none.
    public func metadata() async throws(FederationError) -> ProviderMetadata {
        let now = clock()
        if let cached = cache.withLock({ cache -> ProviderMetadata? in
            guard let metadata = cache.metadata, let at = cache.fetchedAt, now.timeIntervalSince(at) < metadataLifetime else { return nil }
            return metadata
        }) { return cached }
        guard let url = connection.discoveryDocumentURL else { throw .misconfigured("bad discovery URL") }
        let metadata: ProviderMetadata
        do { metadata = try await DiscoveryClient.fetch(issuer: connection.issuer, discoveryURL: url, http: http) } catch {
            throw .upstreamUnavailable("discovery: \(error)")
        }
        cache.withLock { cache in
            if cache.metadata?.jwksURI != metadata.jwksURI { cache.jwks = nil }
            cache.metadata = metadata
            cache.fetchedAt = now
        }
        return metadata
    }

    private func jwks(_ metadata: ProviderMetadata) -> JWKSCache {
        cache.withLock { cache in
            if let existing = cache.jwks { return existing }
            let made = JWKSCache(jwksURI: metadata.jwksURI, http: http, minimumRefetchInterval: jwksRefetchInterval, clock: clock)
            cache.jwks = made
            return made
        }
    }

    // MARK: the authorization request

    /// The URL to send the browser to: `response_type=code`, Signet's client id and callback,
    /// the scopes, `state`, `nonce` (OpenID providers), the PKCE S256 challenge, Apple's
    /// `response_mode=form_post`, Google's `hd`, and an optional `login_hint`.
    public func authorizationURL(state: String, nonce: String, codeChallenge: String, loginHint: String? = nil)
        async throws(FederationError) -> String {
        try await tracked("authorize") { () async throws(FederationError) -> String in
            try await Deadline.run(seconds: overallLimit) { () async throws(FederationError) -> String in
                try await self.buildAuthorizationURL(state: state, nonce: nonce, codeChallenge: codeChallenge, loginHint: loginHint)
            }
        }
    }

    /// The longest a whole round trip (several sequential calls) may take.
    var overallLimit: TimeInterval { TimeInterval(connection.timeoutSeconds) * 4 + 1 }

    func buildAuthorizationURL(state: String, nonce: String, codeChallenge: String, loginHint: String?)
        async throws(FederationError) -> String {
        let endpoint: String
        if let configured = connection.authorizationEndpoint {
            endpoint = configured
        } else if connection.type == .github {
            endpoint = Self.gitHubAuthorize
        } else {
            endpoint = try await metadata().authorizationEndpoint.absoluteString
        }
        var pairs: [(String, String)] = [
            ("response_type", "code"), ("client_id", connection.clientID), ("redirect_uri", callbackURL),
            ("scope", connection.scopes.joined(separator: " ")), ("state", state),
        ]
        if connection.type.isOpenID { pairs.append(("nonce", nonce)) }
        pairs += [("code_challenge", codeChallenge), ("code_challenge_method", "S256")]
        // Apple returns the code by form POST when name or email is asked for.
        if connection.type == .apple { pairs.append(("response_mode", "form_post")) }
        if connection.type == .google, let domain = connection.hostedDomain { pairs.append(("hd", domain)) }
        if let loginHint, !loginHint.isEmpty { pairs.append(("login_hint", loginHint)) }
        let separator = endpoint.contains("?") ? "&" : "?"
        return endpoint + separator + Self.encodeQuery(pairs)
    }

    // MARK: the callback

    /// RFC 9207 §2.4: an `iss` in the authorization response must equal the provider's issuer
    /// (simple string comparison), and it must be there when the discovery document advertises
    /// `authorization_response_iss_parameter_supported`. Checked before the code is used or an
    /// upstream error believed. GitHub (no discovery) is not an OpenID provider and is skipped.
    public func checkResponseIssuer(_ iss: String?) async throws(FederationError) {
        guard connection.type.isOpenID else { return }
        if let iss {
            guard iss.utf8.elementsEqual(connection.issuer.utf8) else { throw .wrongResponseIssuer }
            return
        }
        let advertised = try await Deadline.run(seconds: overallLimit) { () async throws(FederationError) -> Bool in
            try await self.metadata().authorizationResponseIssParameterSupported == true
        }
        if advertised { throw .wrongResponseIssuer }
    }

    /// Exchanges the code (with the PKCE verifier) and returns the checked identity.
    /// `appleUser` is the `user` JSON Apple posts on first consent (only its name is used: the
    /// email always comes from the signed ID token).
    public func complete(code: String, nonce: String, codeVerifier: String, appleUser: String? = nil)
        async throws(FederationError) -> UpstreamIdentity {
        try await tracked("callback") { () async throws(FederationError) -> UpstreamIdentity in
            try await Deadline.run(seconds: overallLimit) { () async throws(FederationError) -> UpstreamIdentity in
                try await self.completeNow(code: code, nonce: nonce, codeVerifier: codeVerifier, appleUser: appleUser)
            }
        }
    }

    func completeNow(code: String, nonce: String, codeVerifier: String, appleUser: String?)
        async throws(FederationError) -> UpstreamIdentity {
        if connection.type == .github { return try await completeGitHub(code: code, codeVerifier: codeVerifier) }
        let metadata = try await self.metadata()
        guard let tokenEndpoint = connection.tokenEndpoint.flatMap(URL.init(string:)) ?? metadata.tokenEndpoint else {
            throw .misconfigured("the provider has no token endpoint")
        }
        let tokens = try await exchange(code: code, codeVerifier: codeVerifier, tokenEndpoint: tokenEndpoint,
                                        method: try authenticationMethod(metadata))
        guard let idToken = tokens.idToken else { throw .invalidIDToken("the token response has no id_token") }
        let policy = IDTokenPolicy(issuer: connection.issuer, audiences: [connection.clientID], nonce: .equals(nonce), clock: clock)
        let validated: ValidatedIDToken
        do { validated = try await IDTokenValidator(policy: policy, keys: jwks(metadata)).validate(idToken) } catch {
            // A key set that could not be fetched says nothing about the token: try again later.
            switch error {
            case .key(.unavailable), .key(.invalidKeySet): throw .upstreamUnavailable("key set: \(error)")
            default: throw .invalidIDToken("\(error)")
            }
        }
        // OpenID Connect Core §3.1.3.7 (5): when azp is present it must be our client id.
        if let azp = validated.claims["azp"], azp.stringValue != connection.clientID {
            throw .invalidIDToken("azp is not Signet's client id")
        }
        var identity = try identity(from: validated, appleUser: appleUser)
        if connection.type == .apple {
            identity.revocableToken = tokens.refreshToken.map(RevocableToken.refreshToken) ?? .accessToken(tokens.accessToken)
        }
        if connection.type == .oidc, let endpoint = metadata.userinfoEndpoint,
           validated.claims["email"] == nil || validated.claims["email_verified"] == nil {
            try await addUserInfo(to: &identity, endpoint: endpoint, accessToken: tokens.accessToken)
        }
        return identity
    }

    /// OpenID Connect Core §5.4: with the code flow a provider may return the claims of the
    /// `email` and `profile` scopes from its userinfo endpoint only. When the ID token lacks the
    /// email or its `email_verified`, both are taken from userinfo (as a pair, never mixed), and
    /// names the ID token lacks. §5.3.4: a userinfo `sub` other than the ID token's is refused.
    func addUserInfo(to identity: inout UpstreamIdentity, endpoint: URL, accessToken: String) async throws(FederationError) {
        let info = try await getJSON(endpoint, headers: ["Authorization": "Bearer \(accessToken)", "Accept": "application/json"])
        guard let object = info.objectValue else { throw .upstreamUnavailable("userinfo: not a JSON object") }
        guard let sub = object["sub"]?.stringValue, sub.utf8.elementsEqual(identity.subject.utf8) else {
            throw .invalidIDToken("userinfo names another subject")
        }
        if let email = object["email"]?.stringValue {
            identity.email = email
            identity.emailVerified = connection.vouchesForEmail(object["email_verified"])
        }
        identity.name = identity.name ?? object["name"]?.stringValue
        identity.givenName = identity.givenName ?? object["given_name"]?.stringValue
        identity.familyName = identity.familyName ?? object["family_name"]?.stringValue
    }

    /// How Signet authenticates at the token endpoint: as configured; else, for an `oidc`
    /// connection, what the discovery document offers (OpenID Connect Discovery §3: an absent
    /// `token_endpoint_auth_methods_supported` means client_secret_basic); else the type's default.
    func authenticationMethod(_ metadata: ProviderMetadata?) throws(FederationError) -> ClientAuthenticationMethod {
        if let configured = connection.configuredAuthenticationMethod { return configured }
        guard connection.type == .oidc, let offered = metadata?.tokenEndpointAuthMethodsSupported else {
            return connection.authenticationMethod
        }
        if offered.contains(ClientAuthenticationMethod.clientSecretBasic.rawValue) { return .clientSecretBasic }
        if offered.contains(ClientAuthenticationMethod.clientSecretPost.rawValue) { return .clientSecretPost }
        throw .misconfigured("the provider's token endpoint offers neither client_secret_basic nor client_secret_post; "
            + "set token_endpoint_auth_method")
    }

    func exchange(code: String, codeVerifier: String, tokenEndpoint: URL, method: ClientAuthenticationMethod)
        async throws(FederationError) -> TokenResponse {
        let client = TokenClient(tokenEndpoint: tokenEndpoint, clientID: connection.clientID,
                                 authentication: try authentication(method), http: http)
        do {
            return try await client.exchangeCode(code, redirectURI: callbackURL, codeVerifier: codeVerifier)
        } catch {
            switch error {
            case .oauth(let body, _): throw .upstreamRejected("token endpoint: \(body.error)")
            default: throw .upstreamUnavailable("token endpoint: \(error)")
            }
        }
    }

    func authentication(_ method: ClientAuthenticationMethod) throws(FederationError) -> ClientAuthentication {
        let secret: String?
        if let appleSecret { secret = try appleSecret.current() } else { secret = credentials.clientSecret }
        switch method {
        case .none: return .none
        case .clientSecretBasic:
            guard let secret else { throw .misconfigured("no client secret") }
            return .basic(secret: secret)
        case .clientSecretPost:
            guard let secret else { throw .misconfigured("no client secret") }
            return .post(secret: secret)
        }
    }

    func identity(from token: ValidatedIDToken, appleUser: String?) throws(FederationError) -> UpstreamIdentity {
        var identity = try connection.identity(from: token)
        if connection.type == .apple, let appleUser, let name = Self.appleName(appleUser) {
            identity.givenName = name.given ?? identity.givenName
            identity.familyName = name.family ?? identity.familyName
            let full = [name.given, name.family].compactMap { $0 }.joined(separator: " ")
            if !full.isEmpty { identity.name = full }
        }
        return identity
    }

    /// The name in Apple's first-consent `user` form field: `{"name":{"firstName":..,"lastName":..},"email":..}`.
    static func appleName(_ json: String) -> (given: String?, family: String?)? {
        guard json.utf8.count <= 4096, let object = try? JSONValue.parse(Array(json.utf8), maximumDepth: 4).objectValue,
              let name = object["name"]?.objectValue else { return nil }
        func clean(_ value: JSONValue?) -> String? {
            guard let text = value?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty, text.count <= 200 else { return nil }
            return text
        }
        let given = clean(name["firstName"]), family = clean(name["lastName"])
        return given == nil && family == nil ? nil : (given, family)
    }

    // MARK: revocation

    /// Apple's token revocation endpoint, `{issuer}/auth/revoke` (https://appleid.apple.com/auth/revoke).
    public var revocationURL: URL? {
        guard connection.type == .apple else { return nil }
        return URL(string: connection.issuer.trimmingSuffix("/") + "/auth/revoke")
    }

    /// Revokes `token` at Apple (`POST /auth/revoke` with `client_id`, `client_secret` = the
    /// ES256 client-secret JWT, `token`, `token_type_hint`), as App Store Review Guideline
    /// 5.1.1(v) asks when an account is deleted. Apple answers 200 with an empty body.
    public func revoke(_ token: RevocableToken) async throws(FederationError) {
        try await tracked("revoke") { () async throws(FederationError) in try await revokeNow(token) }
    }

    func revokeNow(_ token: RevocableToken) async throws(FederationError) {
        guard let url = revocationURL, let appleSecret else { throw .misconfigured("only an Apple connection revokes tokens") }
        let secret = try appleSecret.current()
        let response: OutboundResponse
        do {
            response = try await http.postForm(url, [("client_id", connection.clientID), ("client_secret", secret),
                                                     ("token", token.token), ("token_type_hint", token.hint)])
        } catch { throw .upstreamUnavailable("revoke: \(error)") }
        guard response.status == 200 else {
            throw response.status >= 500 ? .upstreamUnavailable("revoke: status \(response.status)")
                : .upstreamRejected("revoke: status \(response.status)")
        }
    }

    // MARK: GitHub

    func completeGitHub(code: String, codeVerifier: String) async throws(FederationError) -> UpstreamIdentity {
        guard let tokenEndpoint = URL(string: connection.tokenEndpoint ?? Self.gitHubToken) else { throw .misconfigured("bad token endpoint") }
        let tokens = try await exchange(code: code, codeVerifier: codeVerifier, tokenEndpoint: tokenEndpoint,
                                        method: connection.authenticationMethod)
        let base = (connection.apiBaseURL ?? Self.gitHubAPI).trimmingSuffix("/")
        let headers = ["Authorization": "Bearer \(tokens.accessToken)", "Accept": "application/vnd.github+json"]
        guard let userURL = URL(string: base + "/user"), let emailsURL = URL(string: base + "/user/emails") else {
            throw .misconfigured("bad api_base_url")
        }
        let user = try await getJSON(userURL, headers: headers)
        guard let object = user.objectValue, let id = object["id"]?.intValue ?? object["id"]?.stringValue.flatMap({ Int64($0) }) else {
            throw .missingSubject
        }
        var email: String?, verified = false
        if let list = try await getJSON(emailsURL, headers: headers).arrayValue {
            let entries = list.compactMap(\.objectValue)
            if let primary = entries.first(where: { $0["primary"] == .bool(true) }) {
                email = primary["email"]?.stringValue
                verified = primary["verified"] == .bool(true)
            }
        }
        return UpstreamIdentity(issuer: connection.issuer, subject: String(id), email: email, emailVerified: verified,
                                name: object["name"]?.stringValue ?? object["login"]?.stringValue)
    }

    func getJSON(_ url: URL, headers: [String: String]) async throws(FederationError) -> JSONValue {
        let response: OutboundResponse
        do { response = try await http.get(url, headers: headers) } catch { throw .upstreamUnavailable("\(url.path): \(error)") }
        guard (200..<300).contains(response.status) else { throw .upstreamUnavailable("\(url.path): status \(response.status)") }
        do { return try JSONValue.parse(response.body, maximumDepth: 8) } catch {
            throw .upstreamUnavailable("\(url.path): malformed JSON")
        }
    }

    // MARK: encoding

    /// Strict query encoding: everything but unreserved characters (RFC 3986 §2.3) as %XX.
    static func encodeQuery(_ pairs: [(String, String)]) -> String {
        pairs.map { encodeComponent($0.0) + "=" + encodeComponent($0.1) }.joined(separator: "&")
    }

    static func encodeComponent(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: out.append(byte)
            default: out += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
