import Foundation

/// A validated `/authorize` request waiting for sign-in or consent.
public struct PendingAuthorizationRecord: Sendable, Equatable {
    /// Keyed hash of the request handle carried by the browser.
    public var idHash: [UInt8]
    /// The client that made the request.
    public var clientID: String
    /// The validated request as JSON; opaque to the store.
    public var payload: String
    /// When the request was received.
    public var createdAt: Date
    /// When the request expires (10 minutes after creation by default).
    public var expiresAt: Date
    /// When the request was consumed, or nil.
    public var consumedAt: Date?

    /// Creates a record.
    public init(idHash: [UInt8], clientID: String, payload: String, createdAt: Date, expiresAt: Date,
                consumedAt: Date? = nil) {
        self.idHash = idHash
        self.clientID = clientID
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}
