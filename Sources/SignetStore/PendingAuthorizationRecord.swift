import Foundation
import SignetMacros

/// A validated `/authorize` request waiting for sign-in or consent.
@MemberwiseInit
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
    public var consumedAt: Date? = nil
}
