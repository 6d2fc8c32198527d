import Foundation

/// A sign-in waiting for its callback: what the app must remember between opening the browser
/// and receiving the redirect. Kept in token storage so a callback delivered after the app was
/// killed and relaunched still completes; cleared after the exchange or when it expires.
public struct PendingSignIn: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The PKCE `code_verifier` (RFC 7636 §4.1). Secret.
    public let codeVerifier: String
    /// The `state` sent; the callback must return it exactly.
    public let state: String
    /// The `nonce` sent; the ID token must carry it.
    public let nonce: String
    /// The exact redirect URI sent in the authorization request (with the loopback port).
    public let redirectURI: String
    /// When the sign-in began.
    public let createdAt: Date
    /// After this the callback is refused.
    public let expiresAt: Date

    /// Creates a pending sign-in.
    public init(codeVerifier: String, state: String, nonce: String, redirectURI: String, createdAt: Date, expiresAt: Date) {
        self.codeVerifier = codeVerifier
        self.state = state
        self.nonce = nonce
        self.redirectURI = redirectURI
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Redacted: only the redirect URI and the times.
    public var description: String { "PendingSignIn(redirectURI: \(redirectURI), expiresAt: \(expiresAt), secrets redacted)" }

    enum CodingKeys: String, CodingKey {
        case codeVerifier = "code_verifier", state, nonce, redirectURI = "redirect_uri"
        case createdAt = "created_at", expiresAt = "expires_at"
    }
}
