/// Who an upstream provider says signed in, after its evidence (an ID token, or GitHub's API)
/// was verified. The input of `FederatedAccountResolver`.
public struct UpstreamIdentity: Sendable, Equatable {
    /// The configured connection the identity came through.
    public var connectionID: String
    /// The provider's issuer (`iss`), exactly as verified.
    public var issuer: String
    /// The provider's stable subject (`sub`; GitHub's numeric id as a string).
    public var subject: String
    /// The email the provider reported, if any.
    public var email: String?
    /// Whether the PROVIDER says the email is verified (Google `email_verified` true; Apple true
    /// or "true"; GitHub the `verified` flag of the primary email). Only true links accounts.
    public var emailVerified: Bool
    /// Display name, if the provider sent one.
    public var name: String?

    /// Creates an identity.
    public init(connectionID: String, issuer: String, subject: String, email: String?, emailVerified: Bool, name: String? = nil) {
        self.connectionID = connectionID
        self.issuer = issuer
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }
}

extension UpstreamIdentity: CustomStringConvertible {
    /// Names the connection only: subjects and emails are personal data.
    public var description: String { "UpstreamIdentity(connection: \(connectionID), subject: <redacted>, email: <redacted>)" }
}
