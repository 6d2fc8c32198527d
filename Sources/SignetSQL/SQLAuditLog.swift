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
///
/// With a key bound (`keying`), links are keyed; the first keyed append of a process checks that
/// the head is keyed and, if not, first appends `audit_chain_keyed` (the chain's transition), in
/// the same transaction.
public struct SQLAuditLog: AuditLog {
    let database: any SQLDatabase
    /// See `AuditLog.keying`.
    public let keying: AuditChainKeying

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
    static let hashAt = "SELECT hash, at FROM audit_events WHERE sequence = $1"
    static let eventAt = "SELECT \(columns) FROM audit_events WHERE sequence = $1"
    static let deleteThrough = "DELETE FROM audit_events WHERE sequence <= $1"
    static let moveBase = "UPDATE audit_chain SET base_sequence = $1, base_hash = $2 WHERE id = 1"

    /// See `AuditLog.appendAudit(_:)`: tells `keying`'s observer the new head once committed.
    public func appendAudit(_ event: AuditEvent) throws -> Int64 {
        let sealing = keying.needsSeal
        let linked = try database.transaction { db in try Self.append(event, on: db, keying: keying) }
        if sealing { keying.markSealed() }
        keying.appended(AuditAnchor(sequence: linked.sequence, hash: linked.hash))
        return linked.sequence
    }

    /// Appends `event` on `db`, which must be in a write transaction; keyed when `keying` has a key.
    @discardableResult
    static func append(_ event: AuditEvent, on db: any SQLConnection, keying: AuditChainKeying? = nil) throws -> AuditEvent {
        let head = try lockedHead(on: db, keying: keying, at: event.at)
        return try insertLink(event, after: head, key: keying?.key, on: db)
    }

    /// Inserts `event` as the link after `head` and moves the head to it.
    static func insertLink(_ event: AuditEvent, after head: AuditAnchor, key: [UInt8]?, on db: any SQLConnection) throws -> AuditEvent {
        let linked = AuditChain.link(event, after: head.sequence, hash: head.hash, key: key)
        try db.run(insert, binds(linked))
        try db.run(moveHead, [linked.sequence, linked.hash])
        return linked
    }

    /// The head, read `{for_update}`; when `keying` has yet to check it, keyed first if it is not
    /// (an `audit_chain_keyed` event at `at` naming the checkpoint and the last unkeyed sequence).
    static func lockedHead(on db: any SQLConnection, keying: AuditChainKeying?, at: Date) throws -> AuditAnchor {
        guard let head = try db.one(head, [], { AuditAnchor(sequence: try $0.int64(0), hash: try $0.blob(1)) }) else {
            throw StoreError.corrupt("the audit chain has no head row")
        }
        guard let keying, let key = keying.key, keying.needsSeal else { return head }
        let last = head.sequence > 0 ? try db.one(eventAt, [head.sequence], decode) : nil
        if let last, last.hash == head.hash, AuditChain.keyedHash(of: last, key: key) == last.hash { return head }
        guard let base = try db.one(chain, [], { AuditCheckpoint(sequence: try $0.int64(0), hash: try $0.blob(1), at: nil) }) else {
            throw StoreError.corrupt("the audit chain has no head row")
        }
        let keyed = try insertLink(AuditChain.keyingEvent(headSequence: head.sequence, checkpoint: base, at: at), after: head, key: key, on: db)
        return AuditAnchor(sequence: keyed.sequence, hash: keyed.hash)
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

    /// See `AuditLog.verifyAudit(expecting:)`. Reads the checkpoint and head first, then the
    /// events up to that head in pages, so events appended meanwhile are left for the next run.
    public func verifyAudit(expecting expectation: AuditExpectation) throws -> AuditVerification {
        let key = keying.key
        return try database.read { db in
            guard let chain = try db.one(Self.chain, [], { (try $0.int64(0), try $0.blob(1), try $0.int64(2), try $0.blob(3)) }) else {
                throw StoreError.corrupt("the audit chain has no head row")
            }
            var verifier = AuditChain.Verifier(afterSequence: chain.0, hash: chain.1, key: key, expecting: expectation)
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

    /// See `AuditLog.purgeAudit(before:now:)`: one transaction holding the chain row.
    public func purgeAudit(before: Date, now: Date) throws -> Int {
        let sealing = keying.needsSeal
        let removed = try database.transaction { db in
            let head = try Self.lockedHead(on: db, keying: keying, at: now)
            guard let through = try db.one(Self.lastBefore, [before], { try $0.optionalInt64(0) }) ?? nil,
                  let last = try db.one(Self.hashAt, [through], { (try $0.blob(0), try $0.date(1)) }) else { return 0 }
            let removed = try db.run(Self.deleteThrough, [through])
            try db.run(Self.moveBase, [through, last.0])
            if let key = keying.key {
                let checkpoint = AuditCheckpoint(sequence: through, hash: last.0, at: last.1)
                _ = try Self.insertLink(AuditChain.purgedEvent(checkpoint: checkpoint, removed: removed, at: now), after: head, key: key, on: db)
            }
            return removed
        }
        if sealing { keying.markSealed() }
        return removed
    }
}
