import Foundation
import SignetMacros

/// Scopes a user has agreed to grant a client.
@MemberwiseInit
public struct ConsentRecord: Sendable, Equatable {
    /// The user.
    public var userID: String
    /// The client.
    public var clientID: String
    /// Granted scopes.
    public var scopes: [String]
    /// When consent was last given.
    public var grantedAt: Date
}
