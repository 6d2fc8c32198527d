/// Who signed in at the provider, after every check: the key of the federated identity
/// (`issuer`, `subject`) and the profile the provider reported.
public struct UpstreamIdentity: Sendable, Equatable {
    /// The provider's issuer (for GitHub, the configured one: https://github.com).
    public var issuer: String
    /// The provider's stable subject (`sub`; GitHub's numeric user id).
    public var subject: String
    /// The email the provider reported, lowercased, if any.
    public var email: String?
    /// Whether the provider says the email is verified in its documented form.
    public var emailVerified: Bool
    /// Full name, when known (Apple sends it only on first consent, in the form post).
    public var name: String?
    /// Given name.
    public var givenName: String?
    /// Family name.
    public var familyName: String?
    /// Apple's private relay address (`is_private_email`).
    public var isPrivateRelayEmail = false
    /// Google's `hd` claim (the Workspace domain), checked against `hosted_domain`.
    public var hostedDomain: String?
    /// The token to revoke at the provider when the account is deleted (Apple only: its refresh
    /// token, else its access token), with its `token_type_hint`. Never printed.
    public var revocableToken: RevocableToken?

    /// Creates the value.
    public init(issuer: String, subject: String, email: String? = nil, emailVerified: Bool = false, name: String? = nil,
                givenName: String? = nil, familyName: String? = nil, isPrivateRelayEmail: Bool = false, hostedDomain: String? = nil) {
        self.issuer = issuer
        self.subject = subject
        self.email = email?.lowercased()
        self.emailVerified = emailVerified
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.isPrivateRelayEmail = isPrivateRelayEmail
        self.hostedDomain = hostedDomain
    }
}

/// An upstream token that the provider's revocation endpoint accepts.
public enum RevocableToken: Sendable, Equatable, CustomStringConvertible {
    /// A refresh token (what Apple recommends revoking: it ends the whole authorization).
    case refreshToken(String)
    /// An access token, when the provider gave no refresh token.
    case accessToken(String)

    /// The token.
    public var token: String {
        switch self {
        case .refreshToken(let token), .accessToken(let token): token
        }
    }

    /// Apple's `token_type_hint`: `refresh_token` or `access_token`.
    public var hint: String {
        switch self {
        case .refreshToken: "refresh_token"
        case .accessToken: "access_token"
        }
    }

    /// The token of `hint`, or nil for an unknown hint.
    public init?(token: String, hint: String) {
        switch hint {
        case "refresh_token": self = .refreshToken(token)
        case "access_token": self = .accessToken(token)
        default: return nil
        }
    }

    /// Redacted.
    public var description: String { "RevocableToken(<redacted>, \(hint))" }
}

extension UpstreamIdentity: Codable {
    /// What is kept when an identity waits in the store (a pending link): its key and profile.
    /// Never `revocableToken` (a secret), nor the relay flag or `hd`, which only the callback's
    /// checks read.
    private enum CodingKeys: String, CodingKey {
        case issuer, subject, email, emailVerified, name, givenName, familyName
    }
}

extension UpstreamIdentity: CustomStringConvertible {
    /// Without the email or name.
    public var description: String { "UpstreamIdentity(issuer: \(issuer), subject: \(subject), emailVerified: \(emailVerified))" }
}
