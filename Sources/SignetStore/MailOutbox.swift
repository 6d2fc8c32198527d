import Foundation

/// Mail waiting to be sent, so that a message survives a mail server that is down and a restart.
///
/// Senders claim due messages with a lease: a claimed message is not due again until its lease
/// ends, so a sender that dies mid-send leaves it to be tried again, and two senders (nodes) never
/// hold the same message at once. A sender then marks it sent, reschedules it or marks it failed.
/// Sent and failed messages are deleted by `SignetStorage.purge(before:)` once finished before
/// `before`.
public protocol MailOutbox: Sendable {
    /// Adds a new message (its own transaction). To enqueue inside the transaction of the action
    /// that needs the mail, use the SQL type's `enqueue(_:on:)` on that transaction's connection.
    func enqueue(_ message: OutboxMessageRecord) throws

    /// Leases up to `limit` pending messages due at `now` (oldest due first) until `leaseUntil`,
    /// and returns them. One atomic statement: of racing callers each message goes to one.
    func claimDue(now: Date, leaseUntil: Date, limit: Int) throws -> [OutboxMessageRecord]

    /// Marks a pending message sent.
    func markSent(id: String, at: Date) throws

    /// Records a failed attempt of a pending message: `attempts` made, due again at `nextAttemptAt`.
    func reschedule(id: String, attempts: Int, nextAttemptAt: Date) throws

    /// Gives up on a pending message after `attempts` attempts.
    func markFailed(id: String, attempts: Int, at: Date) throws

    /// The message with `id`, or nil.
    func message(id: String) throws -> OutboxMessageRecord?

    /// How many messages are still pending (the outbox depth, for the metrics).
    func pendingCount() throws -> Int
}
