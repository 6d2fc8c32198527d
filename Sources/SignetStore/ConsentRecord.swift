import Foundation

/// Scopes a user has agreed to grant a client.
public struct ConsentRecord: Sendable, Equatable {
    /// The user.
    public var userID: String
    /// The client.
    public var clientID: String
    /// Granted scopes.
    public var scopes: [String]
    /// When consent was last given.
    public var grantedAt: Date

    /// Creates a record.
    public init(userID: String, clientID: String, scopes: [String], grantedAt: Date) {
        self.userID = userID
        self.clientID = clientID
        self.scopes = scopes
        self.grantedAt = grantedAt
    }
}
