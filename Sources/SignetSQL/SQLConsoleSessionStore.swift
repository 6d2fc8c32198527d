import Foundation
import SignetStore

/// Console sessions over a SQL database (`console_sessions`, migration 22).
public struct SQLConsoleSessionStore: ConsoleSessionStore {
    let database: any SQLDatabase

    static let insert = SQLTemplate.insert(into: "console_sessions", "id_hash, user_id, grant_id, scope, binding_hash, created_at, expires_at")
    static let byHash = """
        SELECT id_hash, user_id, grant_id, scope, binding_hash, created_at, expires_at
        FROM console_sessions WHERE id_hash = $1 AND expires_at > $2
        """
    static let delete = "DELETE FROM console_sessions WHERE id_hash = $1"

    /// See `ConsoleSessionStore.insertConsoleSession(_:)`.
    public func insertConsoleSession(_ record: ConsoleSessionRecord) throws {
        try database.write { db in
            try db.run(Self.insert, [record.idHash, record.userID, record.grantID, record.scope, record.bindingHash,
                                     record.createdAt, record.expiresAt])
        }
    }

    /// See `ConsoleSessionStore.consoleSession(idHash:now:)`.
    public func consoleSession(idHash: [UInt8], now: Date) throws -> ConsoleSessionRecord? {
        try database.read { db in
            try db.one(Self.byHash, [idHash, now]) { row in
                ConsoleSessionRecord(idHash: try row.blob(0), userID: try row.text(1), grantID: try row.text(2), scope: try row.text(3),
                                     bindingHash: try row.blob(4), createdAt: try row.date(5), expiresAt: try row.date(6))
            }
        }
    }

    /// See `ConsoleSessionStore.deleteConsoleSession(idHash:)`.
    public func deleteConsoleSession(idHash: [UInt8]) throws -> Bool {
        try database.write { db in try db.run(Self.delete, [idHash]) > 0 }
    }
}
