import Foundation
import SignetStore

/// Browser SSO sessions over a SQL database (`sessions`).
public struct SQLSessionStore: SessionStore {
    let database: any SQLDatabase

    static let sessionColumns = """
        id_hash, user_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at, auth_time, amr, ended_at
        """

    static func decodeSession(_ row: any SQLRow) throws -> SessionRecord {
        SessionRecord(
            idHash: try row.blob(0), userID: try row.text(1), createdAt: try row.date(2), lastSeenAt: try row.date(3),
            idleExpiresAt: try row.date(4), absoluteExpiresAt: try row.date(5), authTime: try row.date(6),
            amr: try row.stringArray(7), endedAt: try row.optionalDate(8))
    }

    static let insert = SQLTemplate.insert(into: "sessions", sessionColumns)
    static let live = """
        SELECT \(sessionColumns) FROM sessions
        WHERE id_hash = $1 AND ended_at IS NULL AND idle_expires_at > $2 AND absolute_expires_at > $2
        """
    static let touch = """
        UPDATE sessions
        SET last_seen_at = $2,
            idle_expires_at = CASE WHEN $3 < absolute_expires_at THEN $3 ELSE absolute_expires_at END
        WHERE id_hash = $1 AND ended_at IS NULL AND idle_expires_at > $2 AND absolute_expires_at > $2
        RETURNING \(sessionColumns)
        """
    static let end = "UPDATE sessions SET ended_at = $1 WHERE id_hash = $2 AND ended_at IS NULL"
    static let activeByUser = """
        SELECT \(sessionColumns) FROM sessions
        WHERE user_id = $1 AND ended_at IS NULL AND idle_expires_at > $2 AND absolute_expires_at > $2
        ORDER BY last_seen_at DESC
        """
    static let endAll = "UPDATE sessions SET ended_at = $1 WHERE user_id = $2 AND ended_at IS NULL"

    /// See `SessionStore.insertSession(_:)`.
    public func insertSession(_ session: SessionRecord) throws {
        let amr = try StringList.json(session.amr)
        try database.write { db in try Self.insertRow(session, amr: amr, db) }
    }

    static func insertRow(_ session: SessionRecord, amr: String, _ db: any SQLConnection) throws {
        try db.run(insert, binds(session, amr: amr))
    }

    /// `session` (its `amr` already encoded) as `insert`'s parameters (also `SQLStores.bulkInsert`'s).
    static func binds(_ session: SessionRecord, amr: String) -> [any SQLBindable] {
        [
            session.idHash, session.userID, session.createdAt, session.lastSeenAt, session.idleExpiresAt,
            session.absoluteExpiresAt, session.authTime, amr, session.endedAt,
        ]
    }

    /// See `SessionStore.session(idHash:now:)`.
    public func session(idHash: [UInt8], now: Date) throws -> SessionRecord? {
        try database.read { db in try db.one(Self.live, [idHash, now], Self.decodeSession) }
    }

    /// See `SessionStore.touchSession(idHash:now:idleExpiresAt:)`.
    public func touchSession(idHash: [UInt8], now: Date, idleExpiresAt: Date) throws -> SessionRecord? {
        try database.write { db in try db.one(Self.touch, [idHash, now, idleExpiresAt], Self.decodeSession) }
    }

    /// See `SessionStore.endSession(idHash:now:)`.
    public func endSession(idHash: [UInt8], now: Date) throws -> Bool {
        try database.write { db in try db.run(Self.end, [now, idHash]) == 1 }
    }

    /// See `SessionStore.activeSessions(userID:now:)`.
    public func activeSessions(userID: String, now: Date) throws -> [SessionRecord] {
        try database.read { db in try db.query(Self.activeByUser, [userID, now], Self.decodeSession) }
    }

    /// See `SessionStore.endSessions(userID:now:)`.
    public func endSessions(userID: String, now: Date) throws -> Int {
        try database.write { db in try db.run(Self.endAll, [now, userID]) }
    }
}
