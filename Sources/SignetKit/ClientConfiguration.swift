import Foundation
import SignetClientCore

/// What an app knows about itself: the issuer it trusts, its client ID, its registered redirect
/// URI and the scopes it asks for.
public struct ClientConfiguration: Sendable {
    /// The issuer, exactly as the server names itself (`https://id.example.com`).
    public var issuer: String
    /// The public client's ID.
    public var clientID: String
    /// The registered redirect URI: `com.example.app:/callback`, a claimed https URL, or a
    /// loopback URI (`http://127.0.0.1/callback`: the listener's port is added, RFC 8252 §7.3).
    public var redirectURI: String
    /// The scopes requested (`openid` is always included).
    public var scopes: [String]
    /// The APIs the app calls (RFC 8707 resource indicators, such as `https://api.example.com`),
    /// sent as `resource` with every sign-in: the grant holds them, the first access token names
    /// them all in `aud`, and `AuthState.freshAccessToken(for:)` narrows to one of them. Each must
    /// be in the client's `resources` at the server.
    public var resources: [String]
    /// How long a pending sign-in waits for its callback (seconds).
    public var pendingSignInLifetime: TimeInterval
    /// Tolerated clock skew for ID-token times (seconds).
    public var leeway: TimeInterval
    /// How the client authenticates at the token endpoint: `.none` for a public client (the
    /// native-app default, RFC 8252 §8.5); a secret only for providers that issue one to installed
    /// apps and do not treat it as secret (Google's desktop clients).
    public var clientAuthentication: ClientAuthentication

    /// A configuration; the default scopes include `offline_access` for a refresh token.
    public init(issuer: String, clientID: String, redirectURI: String,
                scopes: [String] = ["openid", "profile", "email", "offline_access"], resources: [String] = [],
                pendingSignInLifetime: TimeInterval = 600, leeway: TimeInterval = 60,
                clientAuthentication: ClientAuthentication = .none) {
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
        self.resources = resources
        self.pendingSignInLifetime = pendingSignInLifetime
        self.leeway = leeway
        self.clientAuthentication = clientAuthentication
    }

    /// The prefix of this issuer-and-client pair's storage keys (a digest, so keys stay short and
    /// file-name safe).
    var storageKeyPrefix: String {
        "signet-" + RandomToken.sha256Hex(issuer + "\n" + clientID).prefix(16)
    }
}
