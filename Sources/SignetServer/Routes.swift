/// Every path Signet serves, in one place.
public enum Routes {
    /// OpenID Connect Discovery 1.0 §4.
    public static let openIDConfiguration = "/.well-known/openid-configuration"
    /// RFC 8414 §3.
    public static let oauthAuthorizationServer = "/.well-known/oauth-authorization-server"
    /// The JWKS (RFC 7517).
    public static let jwks = "/jwks.json"
    /// Liveness and readiness.
    public static let health = "/healthz"
}
