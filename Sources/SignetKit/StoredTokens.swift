import Foundation

/// The tokens of a signed-in session, as kept in token storage.
///
/// `description` is redacted: tokens never reach a log.
public struct StoredTokens: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The access token. Secret.
    public var accessToken: String
    /// When the access token expires (from `expires_in` at receipt).
    public var accessTokenExpiresAt: Date
    /// The refresh token, when the server issued one (`offline_access`). Secret.
    public var refreshToken: String?
    /// The latest ID token (kept for `id_token_hint` at sign-out). Secret.
    public var idToken: String?
    /// The granted scope.
    public var scope: String?
    /// The signed-in user's `sub`.
    public var subject: String
    /// The user's claims from the ID token (`email`, `name`, …), for display.
    public var claims: [String: String]

    /// Creates stored tokens.
    public init(accessToken: String, accessTokenExpiresAt: Date, refreshToken: String?, idToken: String?,
                scope: String?, subject: String, claims: [String: String] = [:]) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.subject = subject
        self.claims = claims
    }

    /// Whether the access token is still valid for at least `margin` seconds at `now`.
    public func isAccessTokenFresh(at now: Date, margin: TimeInterval) -> Bool {
        accessTokenExpiresAt.timeIntervalSince(now) > margin
    }

    /// Redacted.
    public var description: String {
        "StoredTokens(subject: \(subject), expiresAt: \(accessTokenExpiresAt), refreshToken: \(refreshToken == nil ? "none" : "redacted"))"
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", accessTokenExpiresAt = "access_token_expires_at"
        case refreshToken = "refresh_token", idToken = "id_token", scope, subject = "sub", claims
    }
}
