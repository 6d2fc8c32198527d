/// A successful token endpoint response (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
public struct TokenResponse: Sendable, Codable, Equatable {
    /// The access token (an RFC 9068 JWT from Signet).
    public var accessToken: String
    /// Always `Bearer`.
    public var tokenType: String
    /// Lifetime of the access token in seconds.
    public var expiresIn: Int
    /// A refresh token, when `offline_access` was granted.
    public var refreshToken: String?
    /// The ID token, when `openid` was granted.
    public var idToken: String?
    /// The granted scope.
    public var scope: String?
    /// RFC 8693 §2.2.1: the type of the issued token (token exchange only).
    public var issuedTokenType: String?

    /// Creates a response.
    public init(accessToken: String, tokenType: String = "Bearer", expiresIn: Int, refreshToken: String? = nil,
                idToken: String? = nil, scope: String? = nil, issuedTokenType: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.issuedTokenType = issuedTokenType
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case refreshToken = "refresh_token", idToken = "id_token", scope
        case issuedTokenType = "issued_token_type"
    }
}

/// An error response body (RFC 6749 §5.2).
public struct ErrorResponse: Sendable, Codable, Equatable {
    /// The registered error code.
    public var error: String
    /// Optional human-readable text.
    public var errorDescription: String?

    /// Creates the body from an error: its code and public description (never its private detail).
    public init(_ error: OAuthError) {
        self.error = error.code.rawValue
        self.errorDescription = error.publicDescription
    }

    /// Creates a body with a code that is not a registered OAuth one (a server's `not_found`).
    public init(error: String, description: String?) {
        self.error = error
        self.errorDescription = description
    }

    enum CodingKeys: String, CodingKey { case error, errorDescription = "error_description" }
}
