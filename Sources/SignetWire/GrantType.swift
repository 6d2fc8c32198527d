/// OAuth grant types Signet knows by name.
public enum GrantType: String, Sendable, CaseIterable, Codable {
    /// RFC 6749 §4.1 with PKCE.
    case authorizationCode = "authorization_code"
    /// RFC 6749 §6, with rotation.
    case refreshToken = "refresh_token"
    /// RFC 6749 §4.4, confidential clients only.
    case clientCredentials = "client_credentials"
    /// RFC 8693 token exchange (native ID-token sign-in).
    case tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
}

/// How a client authenticates at the token endpoint (RFC 8414 / RFC 7591 names).
public enum ClientAuthenticationMethod: String, Sendable, CaseIterable, Codable {
    /// Public clients: `client_id` only.
    case none
    /// HTTP Basic with the URL-encoded client id and secret (RFC 6749 §2.3.1).
    case clientSecretBasic = "client_secret_basic"
    /// `client_id` and `client_secret` in the form body.
    case clientSecretPost = "client_secret_post"
}

/// Prompt values of OpenID Connect Core §3.1.2.1 that Signet supports.
public enum Prompt: String, Sendable, CaseIterable {
    /// No interaction: fail with `login_required`/`consent_required` instead.
    case none
    /// Re-authenticate even if a session exists.
    case login
    /// Ask for consent even if it was given before.
    case consent
}
