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

/// An error response body (RFC 6749 §5.2), as the server writes it and as a client reads it
/// (SignetClientCore's `OAuthErrorBody`): the code as sent, which a client may not know, and the
/// optional description and URI. Members that are nil are left out of the JSON.
public struct ErrorResponse: Sendable, Codable, Equatable {
    /// The `error` member exactly as sent: a registered code, or another (a server's `not_found`).
    public var error: String
    /// `error_description`, if any: human-readable text.
    public var errorDescription: String?
    /// `error_uri`, if any.
    public var errorURI: String?

    /// Creates the body from an error: its code and public description (never its private detail).
    public init(_ error: OAuthError) {
        self.init(error: error.code.rawValue, errorDescription: error.publicDescription)
    }

    /// Creates a body; the code need not be a registered OAuth one.
    public init(error: String, errorDescription: String? = nil, errorURI: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
    }

    enum CodingKeys: String, CodingKey { case error, errorDescription = "error_description", errorURI = "error_uri" }
}
