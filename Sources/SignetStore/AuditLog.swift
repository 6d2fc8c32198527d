import Foundation
import SignetMacros

/// An append-only, hash-chained log of security-relevant events (see `AuditChain`).
///
/// Appends are serialised on the chain's head, so the chain stays linear with many threads and,
/// on PostgreSQL, many nodes appending at once.
public protocol AuditLog: Sendable {
    /// Appends the event as the next link of the chain; returns its sequence number (the previous
    /// one plus 1). The store sets `sequence`, `previousHash` and `hash`, and rounds `at` to whole
    /// microseconds.
    @discardableResult
    func appendAudit(_ event: AuditEvent) throws -> Int64

    /// The events matching `query`, newest first.
    func listAudit(_ query: AuditQuery) throws -> [AuditEvent]

    /// Walks the whole chain from its checkpoint to its head and reports the first break: with
    /// a bound key (`keying`) by the keyed rules (`AuditChain.Verifier`), then `expectation`.
    func verifyAudit(expecting expectation: AuditExpectation) throws -> AuditVerification

    /// Deletes the oldest events, up to the last one that happened before `before`, and keeps the
    /// chain verifiable: the last deleted event's sequence and hash become the checkpoint the rest
    /// chains from; a keyed chain records it in an `audit_purged` event at `now`. Returns how many
    /// were deleted.
    @discardableResult
    func purgeAudit(before: Date, now: Date) throws -> Int

    /// The chain's key and append observer, shared by every facet of this store.
    var keying: AuditChainKeying { get }
}

extension AuditLog {
    /// `verifyAudit(expecting:)` with no expectation.
    public func verifyAudit() throws -> AuditVerification {
        try verifyAudit(expecting: AuditExpectation())
    }

    /// The most recent `limit` events, newest first.
    public func recentAudit(limit: Int) throws -> [AuditEvent] {
        try listAudit(AuditQuery(limit: limit))
    }
}

/// Which events `AuditLog.listAudit(_:)` returns: every condition given must hold.
@MemberwiseInit
public struct AuditQuery: Sendable, Equatable {
    /// Only events at or after this time.
    public var since: Date? = nil
    /// Only events with this name.
    public var event: String? = nil
    /// Only events about this user.
    public var subjectID: String? = nil
    /// Only events about this client.
    public var clientID: String? = nil
    /// Only events by this actor (`cli`, an admin client's id, `console:` + a user id, …).
    public var actor: String? = nil
    /// Only events older than this sequence number (paging backwards).
    public var beforeSequence: Int64? = nil
    /// At most this many (0 or less: none).
    public var limit: Int = 100
}
