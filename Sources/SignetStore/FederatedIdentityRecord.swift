import Foundation
import SignetMacros

/// A link from an upstream identity (connection, issuer, subject) to a local user.
@MemberwiseInit
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
    public var email: String? = nil
    /// When the link was made.
    public var createdAt: Date
}
