import Foundation
import SignetStore

/// The mail outbox over a SQL database (`mail_outbox`).
///
/// A feature that must send mail as part of an action (a verification code with the account it
/// creates) enqueues on the connection of that action's transaction with `enqueue(_:on:)`, so the
/// mail exists exactly when the action committed.
public struct SQLMailOutbox: MailOutbox {
    let database: any SQLDatabase

    static let columns = "id, sealed_message, state, attempts, created_at, next_attempt_at, finished_at"
    static let insert = SQLTemplate.insert(into: "mail_outbox", columns)
    /// The lease is one statement. The outer `state` and `next_attempt_at` conditions are checked
    /// again on the newest row version when PostgreSQL's READ COMMITTED waits on a row a racing
    /// claimer just leased (its `next_attempt_at` is then in the future), so a row is never
    /// leased twice; SQLite has one writer.
    static let claim = """
        UPDATE mail_outbox SET next_attempt_at = $2
        WHERE state = 'pending' AND next_attempt_at <= $1 AND id IN (
            SELECT id FROM mail_outbox WHERE state = 'pending' AND next_attempt_at <= $1
            ORDER BY next_attempt_at, id LIMIT $3)
        RETURNING \(columns)
        """
    static let sent = "UPDATE mail_outbox SET state = 'sent', attempts = attempts + 1, finished_at = $2 WHERE id = $1 AND state = 'pending'"
    static let reschedule = "UPDATE mail_outbox SET attempts = $2, next_attempt_at = $3 WHERE id = $1 AND state = 'pending'"
    static let failed = "UPDATE mail_outbox SET state = 'failed', attempts = $2, finished_at = $3 WHERE id = $1 AND state = 'pending'"
    static let byID = "SELECT \(columns) FROM mail_outbox WHERE id = $1"

    static func decode(_ row: any SQLRow) throws -> OutboxMessageRecord {
        let stateText = try row.text(2)
        guard let state = OutboxMessageRecord.State(rawValue: stateText) else {
            throw StoreError.corrupt("mail_outbox.state \(stateText)")
        }
        return OutboxMessageRecord(id: try row.text(0), sealedMessage: try row.blob(1), createdAt: try row.date(4),
                                   attempts: Int(try row.int64(3)), nextAttemptAt: try row.date(5), state: state,
                                   finishedAt: try row.optionalDate(6))
    }

    /// Inserts `message` on `db`, inside the caller's transaction if one is open: the mail is
    /// then enqueued if and only if that transaction commits.
    public static func enqueue(_ message: OutboxMessageRecord, on db: any SQLConnection) throws {
        try db.run(insert, [message.id, message.sealedMessage, message.state.rawValue, message.attempts,
                            message.createdAt, message.nextAttemptAt, message.finishedAt])
    }

    /// See `MailOutbox.enqueue(_:)`.
    public func enqueue(_ message: OutboxMessageRecord) throws {
        try database.write { db in try Self.enqueue(message, on: db) }
    }

    /// See `MailOutbox.claimDue(now:leaseUntil:limit:)`.
    public func claimDue(now: Date, leaseUntil: Date, limit: Int) throws -> [OutboxMessageRecord] {
        try database.write { db in try db.query(Self.claim, [now, leaseUntil, limit], Self.decode) }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// See `MailOutbox.markSent(id:at:)`.
    public func markSent(id: String, at: Date) throws {
        try database.write { db in try db.run(Self.sent, [id, at]) }
    }

    /// See `MailOutbox.reschedule(id:attempts:nextAttemptAt:)`.
    public func reschedule(id: String, attempts: Int, nextAttemptAt: Date) throws {
        try database.write { db in try db.run(Self.reschedule, [id, attempts, nextAttemptAt]) }
    }

    /// See `MailOutbox.markFailed(id:attempts:at:)`.
    public func markFailed(id: String, attempts: Int, at: Date) throws {
        try database.write { db in try db.run(Self.failed, [id, attempts, at]) }
    }

    /// See `MailOutbox.message(id:)`.
    public func message(id: String) throws -> OutboxMessageRecord? {
        try database.read { db in try db.one(Self.byID, [id], Self.decode) }
    }

    static let pending = "SELECT COUNT(*) FROM mail_outbox WHERE state = 'pending'"

    /// See `MailOutbox.pendingCount()`.
    public func pendingCount() throws -> Int {
        try database.read { db in try db.one(Self.pending, []) { try $0.int64(0) } }.map { Int($0) } ?? 0
    }
}
