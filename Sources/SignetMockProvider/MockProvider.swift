import Foundation
import SignetClientCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetServer
import Synchronization

/// A mock upstream identity provider (Google, Apple, GitHub or generic OIDC) running as a real
/// HTTP server on `127.0.0.1` with a kernel-picked port and real keys (RSA 2048 for RS256, P-256
/// for ES256), for end-to-end tests of federation, native ID-token sign-in and the SDK.
///
/// Endpoints: `/.well-known/openid-configuration` (not for GitHub), `/authorize` (auto-approves
/// `user`: 302 to the redirect URI with `code` and `state`, or an auto-submitting `form_post`
/// page), `/token` (client authentication, code, PKCE verifier, redirect URI; returns an ID token
/// with the authorization request's nonce), `/jwks`, `/userinfo`, and GitHub's
/// `/login/oauth/authorize`, `/login/oauth/access_token`, `/user`, `/user/emails`.
///
/// ```swift
/// let google = try MockProvider(flavor: .google)
/// defer { google.stop() }
/// let token = try google.mintIDToken(nonce: "n-0S6_WzA2Mj")
/// google.behaviour.badSignature = true      // misbehave from the next request on
/// ```
public final class MockProvider: Sendable {
    /// The imitated provider.
    public let flavor: MockProviderFlavor
    /// The client id registered at the mock (the `aud` of its ID tokens).
    public let clientID: String
    /// The client secret (checked at `/token` unless `clientSecretValidator` is set).
    public let clientSecret: String
    /// The issuer: `baseURL` as a string, no trailing slash.
    public let issuer: String
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The bound port.
    public let port: Int

    let state: Mutex<MockProviderState>
    let clock: @Sendable () -> Date
    let clientSecretValidator: (@Sendable (String) -> Bool)?
    private let server: HTTPServer

    /// Starts a mock provider.
    ///
    /// - Parameters:
    ///   - clock: the time used for `iat`/`exp`; pass the test server's clock to stay in step.
    ///   - clientSecretValidator: replaces the plain secret comparison at `/token` (Apple's
    ///     client secret is a JWT the client signs).
    ///   - redirectURIs: accepted redirect URIs; empty accepts any.
    public init(flavor: MockProviderFlavor, clientID: String = "mock-client", clientSecret: String = "mock-secret",
                user: MockUser = MockUser(), redirectURIs: [String] = [],
                clock: @escaping @Sendable () -> Date = { Date() },
                clientSecretValidator: (@Sendable (String) -> Bool)? = nil) throws {
        self.flavor = flavor
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clock = clock
        self.clientSecretValidator = clientSecretValidator
        self.state = Mutex(try MockProviderState(user: user, redirectURIs: redirectURIs, generation: 1))
        let router = Router()
        let port = try FreePort.pick()
        guard let baseURL = URL(string: "http://127.0.0.1:\(port)") else { throw MockProviderError("bad port \(port)") }
        self.port = port
        self.baseURL = baseURL
        self.issuer = baseURL.absoluteString
        self.server = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:\(port)")],
                                                                          threadCount: 2, shutdownGraceSeconds: 1,
                                                                          logLibraryErrors: false),
                                 router: router)
        installRoutes(router)
        try server.start()
    }

    deinit { server.stop() }

    /// Stops the server. Safe to call more than once.
    public func stop() {
        release()
        server.stop()
    }

    /// The misbehaviour switches (read or replace; applies from the next request).
    public var behaviour: MockProviderBehaviour {
        get { state.withLock { $0.behaviour } }
        set { state.withLock { $0.behaviour = newValue } }
    }

    /// The user signed in by `/authorize` and described by minted tokens.
    public var user: MockUser {
        get { state.withLock { $0.user } }
        set { state.withLock { $0.user = newValue } }
    }

    /// `{issuer}/.well-known/openid-configuration`.
    public var discoveryURL: URL { url("/.well-known/openid-configuration") }
    /// `{issuer}/jwks`.
    public var jwksURL: URL { url("/jwks") }
    /// `{issuer}/authorize` (GitHub: `/login/oauth/authorize`).
    public var authorizationURL: URL { url(flavor == .github ? "/login/oauth/authorize" : "/authorize") }
    /// `{issuer}/token` (GitHub: `/login/oauth/access_token`).
    public var tokenURL: URL { url(flavor == .github ? "/login/oauth/access_token" : "/token") }

    /// `baseURL` + `path`.
    public func url(_ path: String) -> URL {
        URL(string: issuer + path) ?? baseURL
    }

    /// The published key set, as served at `/jwks`.
    public func jwks() -> JWKSet {
        let (keys, single) = state.withLock { ($0.keys, $0.behaviour.singleKeyWithoutKeyID) }
        guard single else { return keys.publishedSet }
        return JWKSet(keys: [try? (signingAlgorithm == .es256 ? keys.ec : keys.rsa).publicJWK()].compactMap { $0 })
    }

    /// Replaces the signing keys with fresh ones under new key IDs; the old keys are no longer
    /// published (tokens signed before no longer verify after a refetch).
    public func rotateKeys() throws {
        let generation = state.withLock { $0.keys.generation } + 1
        let keys = try MockProviderKeys(generation: generation)
        state.withLock { $0.keys = keys }
    }

    /// How many requests each path has received (e.g. to count JWKS fetches).
    public func requestCount(_ path: String) -> Int { state.withLock { $0.requestCounts[path, default: 0] } }

    /// How many requests to `path` are being answered right now (held, delayed or running).
    public func inFlightCount(_ path: String) -> Int { state.withLock { $0.inFlight[path, default: 0] } }

    /// Turns `holdRequests` off and lets every held request go on.
    public func release() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.behaviour.holdRequests = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Every `/auth/revoke` call received, oldest first.
    public var revocations: [MockRevocation] { state.withLock { $0.revocations } }

    /// The refresh tokens handed out and not revoked (Apple flavor).
    public var liveRefreshTokens: Set<String> { state.withLock { $0.refreshTokens } }

    /// The nonce sent with the most recent `/authorize` request, if any.
    public var lastAuthorizationNonce: String? { state.withLock { $0.lastAuthorizationNonce } }
}
