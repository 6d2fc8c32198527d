import Foundation
import SignetStore

/// The audit trail over a SQL database: `audit_events`, chained by `AuditChain`, and its one-row
/// `audit_chain` table (the head: the last appended sequence and hash; the checkpoint: the last
/// purged ones).
///
/// Appends are serialised on the `audit_chain` row: it is read `{for_update}` in the append's
/// write transaction, so on PostgreSQL a second appender (another thread or another node) waits
/// for the first to commit and then reads the new head (READ COMMITTED re-reads a row it waited
/// for); SQLite's `BEGIN IMMEDIATE` has one writer at a time anyway. A row lock rather than an
/// advisory lock, because the head has to be stored anyway and the lock is then the same
/// statement on both backends.
public struct SQLAuditLog: AuditLog {
    let database: any SQLDatabase

    static let columns = """
        sequence, at, event, actor, subject_id, client_id, address, user_agent, method, reason, detail, prev_hash, hash
        """
    static let head = "SELECT head_sequence, head_hash FROM audit_chain WHERE id = 1 {for_update}"
    static let chain = "SELECT base_sequence, base_hash, head_sequence, head_hash FROM audit_chain WHERE id = 1"
    static let insert = SQLTemplate.insert(into: "audit_events", columns)
    static let moveHead = "UPDATE audit_chain SET head_sequence = $1, head_hash = $2 WHERE id = 1"
    /// The filters every list applies (`$1`…`$5`), newest first, `LIMIT $6`.
    static let filters = """
        (CAST($1 AS BIGINT) IS NULL OR at >= $1) AND (CAST($2 AS TEXT) IS NULL OR event = $2)
          AND (CAST($3 AS TEXT) IS NULL OR subject_id = $3) AND (CAST($4 AS TEXT) IS NULL OR client_id = $4)
          AND (CAST($5 AS BIGINT) IS NULL OR sequence < $5)
        ORDER BY sequence DESC LIMIT $6
        """
    static let list = "SELECT \(columns) FROM audit_events WHERE \(filters)"
    /// By actor: a plain `actor = $7`, so both planners walk `audit_events_actor (actor, sequence)`
    /// backwards (an `IS NULL OR` condition would keep them on a scan of the whole table).
    static let listByActor = "SELECT \(columns) FROM audit_events WHERE actor = $7 AND \(filters)"
    static let page = "SELECT \(columns) FROM audit_events WHERE sequence > $1 AND sequence <= $2 ORDER BY sequence LIMIT 500"
    static let lastBefore = "SELECT MAX(sequence) FROM audit_events WHERE at < $1"
    static let hashAt = "SELECT hash FROM audit_events WHERE sequence = $1"
    static let deleteThrough = "DELETE FROM audit_events WHERE sequence <= $1"
    static let moveBase = "UPDATE audit_chain SET base_sequence = $1, base_hash = $2 WHERE id = 1"

    /// See `AuditLog.appendAudit(_:)`.
    public func appendAudit(_ event: AuditEvent) throws -> Int64 {
        try database.transaction { db in try Self.append(event, on: db) }
    }

    /// Appends `event` on `db`, which must be in a write transaction.
    static func append(_ event: AuditEvent, on db: any SQLConnection) throws -> Int64 {
        guard let head = try db.one(head, [], { (try $0.int64(0), try $0.blob(1)) }) else {
            throw StoreError.corrupt("the audit chain has no head row")
        }
        let linked = AuditChain.link(event, after: head.0, hash: head.1)
        try db.run(insert, binds(linked))
        try db.run(moveHead, [linked.sequence, linked.hash])
        return linked.sequence
    }

    static func binds(_ e: AuditEvent) -> [any SQLBindable] {
        [e.sequence, e.at, e.event, e.actor, e.subjectID, e.clientID, e.address, e.userAgent, e.method, e.reason, e.detail,
         e.previousHash, e.hash]
    }

    static func decode(_ row: any SQLRow) throws -> AuditEvent {
        AuditEvent(sequence: try row.int64(0), event: try row.text(2), actor: row.optionalText(3), subjectID: row.optionalText(4),
                   clientID: row.optionalText(5), address: row.optionalText(6), userAgent: row.optionalText(7),
                   method: row.optionalText(8), reason: row.optionalText(9), detail: try row.text(10), at: try row.date(1),
                   previousHash: try row.blob(11), hash: try row.blob(12))
    }

    /// See `AuditLog.listAudit(_:)`.
    public func listAudit(_ query: AuditQuery) throws -> [AuditEvent] {
        var binds: [any SQLBindable] = [query.since, query.event, query.subjectID, query.clientID, query.beforeSequence, max(0, query.limit)]
        if let actor = query.actor { binds.append(actor) }
        return try database.read { db in try db.query(query.actor == nil ? Self.list : Self.listByActor, binds, Self.decode) }
    }

    /// See `AuditLog.verifyAudit()`. Reads the checkpoint and head first, then the events up to
    /// that head in pages, so events appended meanwhile are left for the next run.
    public func verifyAudit() throws -> AuditVerification {
        try database.read { db in
            guard let chain = try db.one(Self.chain, [], { (try $0.int64(0), try $0.blob(1), try $0.int64(2), try $0.blob(3)) }) else {
                throw StoreError.corrupt("the audit chain has no head row")
            }
            var verifier = AuditChain.Verifier(afterSequence: chain.0, hash: chain.1)
            var last = chain.0
            while true {
                let rows = try db.query(Self.page, [last, chain.2], Self.decode)
                for row in rows {
                    if let broken = verifier.check(row) { return .broken(broken) }
                    last = row.sequence
                }
                if rows.count < 500 { break }
            }
            return verifier.finish(headSequence: chain.2, headHash: chain.3)
        }
    }

    /// See `AuditLog.purgeAudit(before:)`: one transaction holding the chain row.
    public func purgeAudit(before: Date) throws -> Int {
        try database.transaction { db in
            _ = try db.one(Self.head, [], { try $0.int64(0) })
            guard let through = try db.one(Self.lastBefore, [before], { try $0.optionalInt64(0) }) ?? nil,
                  let hash = try db.one(Self.hashAt, [through], { try $0.blob(0) }) else { return 0 }
            let removed = try db.run(Self.deleteThrough, [through])
            try db.run(Self.moveBase, [through, hash])
            return removed
        }
    }
}
