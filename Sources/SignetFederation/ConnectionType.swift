import SignetWire

/// The kind of upstream provider a connection talks to, with its well-known defaults.
public enum ConnectionType: String, Sendable, CaseIterable, Codable {
    /// Google (OpenID Connect; `email_verified` must be the boolean true).
    case google
    /// Sign in with Apple (OpenID Connect with `response_mode=form_post` and an ES256 client-secret JWT).
    case apple
    /// GitHub (OAuth 2.0 only: the user comes from `GET /user`, the email from `GET /user/emails`).
    case github
    /// Any OpenID provider, configured from its discovery document.
    case oidc

    /// The issuer used when none is configured (nil: the connection must name one).
    public var defaultIssuer: String? {
        switch self {
        case .google: "https://accounts.google.com"
        case .apple: "https://appleid.apple.com"
        case .github: "https://github.com"
        case .oidc: nil
        }
    }

    /// The scopes asked for when none are configured.
    public var defaultScopes: [String] {
        switch self {
        case .google, .oidc: ["openid", "email", "profile"]
        case .apple: ["openid", "email", "name"]
        case .github: ["read:user", "user:email"]
        }
    }

    /// The button label when none is configured.
    public var defaultDisplayName: String? {
        switch self {
        case .google: "Google"
        case .apple: "Apple"
        case .github: "GitHub"
        case .oidc: nil
        }
    }

    /// How Signet authenticates at the token endpoint when nothing is configured (an `oidc`
    /// connection uses client_secret_post instead when the discovery document offers only that).
    public var defaultAuthenticationMethod: ClientAuthenticationMethod {
        switch self {
        case .google, .apple, .github: .clientSecretPost
        case .oidc: .clientSecretBasic
        }
    }

    /// Whether the provider issues ID tokens (everything but GitHub).
    public var isOpenID: Bool { self != .github }
}
