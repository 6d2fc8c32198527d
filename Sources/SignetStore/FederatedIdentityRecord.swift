import Foundation

/// A link from an upstream identity (connection, issuer, subject) to a local user.
public struct FederatedIdentityRecord: Sendable, Equatable {
    /// The configured upstream connection (`google`, `apple`, ...).
    public var connectionID: String
    /// The upstream issuer.
    public var issuer: String
    /// The upstream subject.
    public var subject: String
    /// The local user this identity signs in as.
    public var userID: String
    /// The email the upstream reported when linked, if any.
    public var email: String?
    /// When the link was made.
    public var createdAt: Date

    /// Creates a record.
    public init(connectionID: String, issuer: String, subject: String, userID: String,
                email: String? = nil, createdAt: Date) {
        self.connectionID = connectionID
        self.issuer = issuer
        self.subject = subject
        self.userID = userID
        self.email = email
        self.createdAt = createdAt
    }
}
