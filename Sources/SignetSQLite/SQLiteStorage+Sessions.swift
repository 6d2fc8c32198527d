import Foundation
import SignetStore

extension SQLiteStorage: SessionStore {
    static let sessionColumns = """
        id_hash, user_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at, auth_time, amr, ended_at
        """

    static func decodeSession(_ row: SQLiteRow) throws -> SessionRecord {
        SessionRecord(
            idHash: try row.blob(0), userID: try row.text(1), createdAt: try row.date(2), lastSeenAt: try row.date(3),
            idleExpiresAt: try row.date(4), absoluteExpiresAt: try row.date(5), authTime: try row.date(6),
            amr: try row.stringArray(7), endedAt: row.optionalDate(8))
    }

    /// See `SessionStore.insertSession(_:)`.
    public func insertSession(_ session: SessionRecord) throws {
        let amr = try StringList.json(session.amr)
        try write { db in
            try db.run("INSERT INTO sessions (\(Self.sessionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                session.idHash, session.userID, session.createdAt, session.lastSeenAt, session.idleExpiresAt,
                session.absoluteExpiresAt, session.authTime, amr, session.endedAt,
            ])
        }
    }

    /// See `SessionStore.session(idHash:now:)`.
    public func session(idHash: [UInt8], now: Date) throws -> SessionRecord? {
        try read { db in
            try db.one("""
                SELECT \(Self.sessionColumns) FROM sessions
                WHERE id_hash = ?1 AND ended_at IS NULL AND idle_expires_at > ?2 AND absolute_expires_at > ?2
                """, [idHash, now], Self.decodeSession)
        }
    }

    /// See `SessionStore.touchSession(idHash:now:idleExpiresAt:)`.
    public func touchSession(idHash: [UInt8], now: Date, idleExpiresAt: Date) throws -> SessionRecord? {
        try write { db in
            try db.one("""
                UPDATE sessions
                SET last_seen_at = ?2,
                    idle_expires_at = CASE WHEN ?3 < absolute_expires_at THEN ?3 ELSE absolute_expires_at END
                WHERE id_hash = ?1 AND ended_at IS NULL AND idle_expires_at > ?2 AND absolute_expires_at > ?2
                RETURNING \(Self.sessionColumns)
                """, [idHash, now, idleExpiresAt], Self.decodeSession)
        }
    }

    /// See `SessionStore.endSession(idHash:now:)`.
    public func endSession(idHash: [UInt8], now: Date) throws -> Bool {
        try write { db in
            try db.run("UPDATE sessions SET ended_at = ? WHERE id_hash = ? AND ended_at IS NULL", [now, idHash]) == 1
        }
    }

    /// See `SessionStore.endSessions(userID:now:)`.
    public func endSessions(userID: String, now: Date) throws -> Int {
        try write { db in
            try db.run("UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL", [now, userID])
        }
    }
}
