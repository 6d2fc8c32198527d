import Foundation

/// Pending `/authorize` requests between the redirect to the login page and the code.
public protocol AuthorizationRequestStore: Sendable {
    /// Stores a pending request. Throws `.duplicate` if the hash exists.
    func insertPendingAuthorization(_ request: PendingAuthorizationRecord) throws

    /// The request, or nil if unknown, consumed, or expired (`now >= expiresAt`).
    func pendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord?

    /// Deletes the request (for example when the user cancels); returns false if there was none.
    func deletePendingAuthorization(idHash: [UInt8]) throws -> Bool

    /// Atomically marks the request consumed and returns it, or returns nil if it is unknown,
    /// already consumed or expired. Of any number of concurrent calls, at most one gets the record.
    func consumePendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord?
}
