import Foundation
import SignetStore

/// Rows for `SQLStores.bulkInsert(_:)`: what the scale benchmark's loader (`SignetBench seed`)
/// writes, as the stores' own records.
public struct SQLBulkRows: Sendable {
    public var users: [UserRecord] = []
    public var sessions: [SessionRecord] = []
    public var grants: [GrantRecord] = []
    public var tokens: [RefreshTokenRecord] = []
    public var codes: [AuthorizationCodeRecord] = []
    /// Appended to the audit chain in order (numbered and hashed as `appendAudit` does).
    public var audit: [AuditEvent] = []

    public init() {}

    /// How many rows.
    public var count: Int { users.count + sessions.count + grants.count + tokens.count + codes.count + audit.count }
}

extension SQLStores {
    /// Writes `rows` in one transaction through the same insert statements the stores use (the
    /// same tables, columns and encodings; the audit events chained like `appendAudit`), so a
    /// server serves them as if it had written them. For loading large test databases: one
    /// transaction per call, no per-row commit.
    public func bulkInsert(_ rows: SQLBulkRows) throws {
        try database.transaction { db in
            for user in rows.users { try SQLUserStore.insertUserRow(user, db) }
            for session in rows.sessions { try SQLSessionStore.insertRow(session, amr: try StringList.json(session.amr), db) }
            for grant in rows.grants { try SQLRefreshTokenStore.insertGrant(grant, db) }
            for token in rows.tokens { try SQLRefreshTokenStore.insertToken(token, db) }
            for code in rows.codes { try SQLCodeStore.insertRow(code, db) }
            for event in rows.audit { _ = try SQLAuditLog.append(event, on: db) }
        }
    }

    /// Runs `sql` outside a transaction on the writing connection (a loader's `PRAGMA`s or
    /// `ANALYZE`).
    public func executeOnWriter(_ sql: String) throws {
        try database.write { db in try db.execute(sql) }
    }
}
