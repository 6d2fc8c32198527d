import Foundation
import SignetCrypto
import SignetServer

/// What one load-generator operation is. Each connection has its own thread and its own
/// `LoadWorker`; an operation may take several requests (a sign-in is two or three).
enum LoadScenario: String, CaseIterable {
    /// `POST /token` `grant_type=refresh_token`, each presenting the successor from the previous
    /// response (one chain per connection); the full `openid profile email offline_access` scope,
    /// so every response carries a fresh ID token (RS256 by default) and an access token.
    case refreshIDToken = "refresh-id"
    /// The same chains with `scope=offline_access` (narrowing): no `openid`, so no ID token.
    case refreshNoIDToken = "refresh-noid"
    /// `POST /token` `grant_type=client_credentials`, confidential client, `client_secret_basic`.
    case clientCredentials = "client-credentials"
    /// `GET /userinfo` with `Authorization: Bearer` (an access token per connection).
    case userinfo
    /// A complete sign-in with an established SSO session: `GET /authorize` with the session
    /// cookie (303 with a code at the loopback redirect URI), then `POST /token` with the code
    /// and the PKCE verifier (ID token, access token, refresh token).
    case signIn = "signin"
    /// A password sign-in as a new browser: `GET /authorize` → `GET /signin` → `POST /signin`
    /// (CSRF field and cookie; Argon2id) → 303 to the redirect URI with a code.
    case passwordSignIn = "password"
    /// `GET /healthz`: no storage, no crypto. The HTTP floor, the server CPU that the transport
    /// alone (libmicrohttpd, the socket, the kernel's loopback path, the router, the metrics)
    /// costs per request under this load generator; the other scenarios' figures include it.
    case healthz

    /// Requests per operation.
    var requestsPerOperation: Int {
        switch self {
        case .signIn: 2
        case .passwordSignIn: 3
        default: 1
        }
    }

    /// Whether the scenario needs an SSO session established before the measurement.
    var needsSession: Bool { self != .clientCredentials && self != .passwordSignIn && self != .healthz }

    /// Whether each connection carries a refresh-token chain that a failure breaks.
    var isChain: Bool { self == .refreshIDToken || self == .refreshNoIDToken }
}

/// Everything the workers share (read-only).
struct LoadSettings: Sendable {
    var port: Int
    var scenario: LoadScenario
    var publicClientID: String
    var redirectURI: String
    var scope: String
    var email: String
    var password: String
    var confidentialClientID: String?
    var confidentialSecret: String?
    /// Whether the server is bench/floor's reference server, whose `POST /reference/start` gives
    /// a connection its refresh and access tokens (no sign-in, no session).
    var reference = false
}

/// One connection's state and its operation. Used by one thread at a time (handed from run to
/// run after the previous thread has finished), hence `@unchecked Sendable`.
final class LoadWorker: @unchecked Sendable {
    let settings: LoadSettings
    let connection: HTTPConnection
    let client: OAuthClient
    /// The SSO cookie value, when the scenario needs one.
    let session: String?
    private var refreshToken: String?
    private var accessToken: String?
    private var basicAuthorization: String?
    /// Set when a chain broke: the worker does nothing more.
    private(set) var aborted: String?
    /// Refresh tokens seeded in the database (`SignetBench seed`), presented one per operation
    /// before the chain goes on from the last successor (the scale section).
    var seededRefreshTokens: [String] = []

    init(settings: LoadSettings, session: String?) {
        self.settings = settings
        self.connection = HTTPConnection(port: settings.port)
        self.client = OAuthClient(clientID: settings.publicClientID, redirectURI: settings.redirectURI)
        self.session = session
    }

    /// Gets what the operation needs (not measured): a refresh token or an access token from a
    /// code flow over the SSO session, or the Basic credentials.
    func setUp() throws(HTTPClientError) {
        if settings.reference {
            let response = try connection.request("POST", "/reference/start", body: "")
            guard response.status == 200, let refresh = response.jsonString("refresh_token"),
                  let access = response.jsonString("access_token") else {
                throw HTTPClientError("POST /reference/start: status \(response.status)")
            }
            (refreshToken, accessToken) = (refresh, access)
            return
        }
        switch settings.scenario {
        case .refreshIDToken, .refreshNoIDToken, .userinfo:
            let (code, _) = try client.authorize(connection, scope: settings.scope, session: session)
            guard let code else { throw HTTPClientError("GET /authorize with a session gave no code") }
            let tokens = try client.redeem(connection, code)
            guard let refresh = tokens.refreshToken else {
                throw HTTPClientError("the code flow gave no refresh token (is offline_access in the client's scope?)")
            }
            refreshToken = refresh
            accessToken = tokens.accessToken
        case .clientCredentials:
            guard let id = settings.confidentialClientID, let secret = settings.confidentialSecret else {
                throw HTTPClientError("client-credentials needs --confidential-client and --secret-file")
            }
            // RFC 6749 §2.3.1: form-encode id and secret before base64.
            let pair = OAuthClient.percentEncode(id) + ":" + OAuthClient.percentEncode(secret)
            basicAuthorization = "Basic " + Data(pair.utf8).base64EncodedString()
        case .signIn, .passwordSignIn, .healthz:
            break
        }
    }

    /// One operation; throws on any unexpected answer. For a chain, a failure aborts it.
    func operate() throws(HTTPClientError) {
        if let aborted { throw HTTPClientError("chain aborted earlier: \(aborted)") }
        do {
            try operation()
        } catch {
            if settings.scenario.isChain { aborted = error.description }
            throw error
        }
    }

    private func operation() throws(HTTPClientError) {
        switch settings.scenario {
        case .refreshIDToken, .refreshNoIDToken:
            guard let current = seededRefreshTokens.popLast() ?? refreshToken else { throw HTTPClientError("no refresh token") }
            let withID = settings.scenario == .refreshIDToken
            let tokens = try client.refresh(connection, current, scope: withID ? nil : "offline_access")
            guard let next = tokens.refreshToken, next != current else { throw HTTPClientError("refresh: no new refresh token") }
            if withID && tokens.idToken == nil { throw HTTPClientError("refresh with openid: no id_token") }
            if !withID && tokens.idToken != nil { throw HTTPClientError("refresh with scope=offline_access: unexpected id_token") }
            refreshToken = next
        case .clientCredentials:
            guard let basicAuthorization else { throw HTTPClientError("not set up") }
            let response = try connection.request("POST", Routes.token, headers: [("Authorization", basicAuthorization)],
                                                  body: "grant_type=client_credentials")
            guard response.status == 200, response.jsonString("access_token") != nil else {
                throw HTTPClientError("client_credentials: status \(response.status), error \(response.jsonString("error") ?? "?")")
            }
        case .userinfo:
            guard let accessToken else { throw HTTPClientError("not set up") }
            let response = try connection.request("GET", Routes.userinfo, headers: [("Authorization", "Bearer " + accessToken)])
            guard response.status == 200, response.jsonString("sub") != nil else {
                throw HTTPClientError("GET /userinfo: status \(response.status), \(response.header("www-authenticate") ?? "")")
            }
        case .signIn:
            let (code, _) = try client.authorize(connection, scope: settings.scope, session: session)
            guard let code else { throw HTTPClientError("GET /authorize with a session gave no code") }
            let tokens = try client.redeem(connection, code)
            guard tokens.idToken != nil, tokens.refreshToken != nil else {
                throw HTTPClientError("code redemption: missing id_token or refresh_token")
            }
        case .passwordSignIn:
            _ = try client.passwordSignIn(connection, email: settings.email, password: settings.password, scope: settings.scope)
        case .healthz:
            let response = try connection.request("GET", Routes.health)
            guard response.status == 200 else { throw HTTPClientError("GET /healthz: status \(response.status)") }
        }
    }
}
