import Foundation

/// What `AuditLog.verifyAudit(expecting:)` checks beyond the chain itself, from outside the
/// database: an anchor kept elsewhere, a sequence the head must have reached, and the retention.
public struct AuditExpectation: Sendable, Equatable {
    /// The event at this anchor's sequence must be in the chain with this hash.
    public var head: AuditAnchor?
    /// The head must be at least this sequence.
    public var atLeast: Int64?
    /// `audit.retention` in seconds (0: keep everything): a keyed checkpoint's event must be older
    /// than `now` minus this. Nil: not checked.
    public var retentionSeconds: Int?
    /// The time the retention is measured from.
    public var now: Date

    /// An expectation; by default none.
    public init(head: AuditAnchor? = nil, atLeast: Int64? = nil, retentionSeconds: Int? = nil, now: Date = .distantFuture) {
        self.head = head
        self.atLeast = atLeast
        self.retentionSeconds = retentionSeconds
        self.now = now
    }
}
