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
    /// Parameters per multi-row `INSERT` of `bulkInsert`: below SQLite's limit (32,766 since 3.32)
    /// and PostgreSQL's (65,535), and small enough for SQLite's parser, whose work per numbered
    /// parameter grows with the parameters before it (8,000 made the few preparations 16 % of a
    /// load's CPU); a statement still carries a hundred rows or more.
    static let bulkParameters = 2_000

    /// Writes `rows` in one transaction with the stores' own column lists and parameter encodings
    /// (`SQLRefreshTokenStore.grantBinds`, `tokenBinds`, …, the ones their single-row inserts
    /// bind; each grant's profile key looked up once per profile, `grantRows`), as multi-row
    /// `INSERT`s of `bulkParameters` parameters each (one round trip per statement on PostgreSQL
    /// instead of one per row), so a server serves the rows as if it had
    /// written them. The audit events are chained in order as `appendAudit` does (the head read
    /// once, each event linked to the one before, the head moved once). For loading large test
    /// databases; rows are inserted in the order given.
    public func bulkInsert(_ rows: SQLBulkRows) throws {
        let users = rows.users.map(SQLUserStore.userBinds)
        let sessions = try rows.sessions.map { try SQLSessionStore.binds($0, amr: try StringList.json($0.amr)) }
        let tokens = rows.tokens.map(SQLRefreshTokenStore.tokenBinds)
        let codes = try rows.codes.map(SQLCodeStore.binds)
        try database.transaction { db in
            try Self.insertRows("users", SQLUserStore.userColumns, users, db)
            try Self.insertRows("sessions", SQLSessionStore.sessionColumns, sessions, db)
            let grants = try Self.grantRows(rows.grants, db)
            try Self.insertRows("grants", SQLRefreshTokenStore.grantInsertColumns, grants, db)
            try Self.insertRows("refresh_tokens", SQLRefreshTokenStore.tokenColumns, tokens, db, tuple: SQLRefreshTokenStore.tokenTuple)
            try Self.insertRows("authorization_codes", SQLCodeStore.codeColumns, codes, db)
            guard !rows.audit.isEmpty else { return }
            guard var head = try db.one(SQLAuditLog.head, [], { (try $0.int64(0), try $0.blob(1)) }) else {
                throw StoreError.corrupt("the audit chain has no head row")
            }
            var linked: [[any SQLBindable]] = []
            linked.reserveCapacity(rows.audit.count)
            for event in rows.audit {
                let next = AuditChain.link(event, after: head.0, hash: head.1)
                linked.append(SQLAuditLog.binds(next))
                head = (next.sequence, next.hash)
            }
            try Self.insertRows("audit_events", SQLAuditLog.columns, linked, db)
            try db.run(SQLAuditLog.moveHead, [head.0, head.1])
        }
    }

    /// `grants` as rows of `SQLRefreshTokenStore.grantInsertColumns`: each grant's own columns and
    /// its profile's key, each distinct profile added unless it is there and its key read once.
    static func grantRows(_ grants: [GrantRecord], _ db: any SQLConnection) throws -> [[any SQLBindable]] {
        var keys: [GrantProfile: Int64] = [:]
        return try grants.map { grant in
            let profile = try GrantProfile(grant)
            if keys[profile] == nil {
                try db.run(SQLRefreshTokenStore.insertProfileSQL, profile.binds)
                keys[profile] = try db.one(SQLRefreshTokenStore.profileKey, [profile.key]) { try $0.int64(0) }
            }
            guard let key = keys[profile] else { throw StoreError.corrupt("a grant profile is missing after its insert") }
            return SQLRefreshTokenStore.grantBinds(grant) + [key]
        }
    }

    /// `rows` (each one row's parameters in `columns` order) as multi-row inserts into `table`, each
    /// row written as `tuple` (default: one parameter a column; see `SQLTemplate.insert(into:_:tuple:rows:)`).
    static func insertRows(_ table: String, _ columns: String, _ rows: [[any SQLBindable]], _ db: any SQLConnection,
                           tuple: String? = nil) throws {
        guard let width = rows.first?.count, width > 0 else { return }
        let perStatement = max(1, bulkParameters / width)
        func statement(rows: Int) -> String {
            tuple.map { SQLTemplate.insert(into: table, columns, tuple: $0, rows: rows) } ?? SQLTemplate.insert(into: table, columns, rows: rows)
        }
        let full = statement(rows: perStatement)
        var start = 0
        while start < rows.count {
            let end = min(start + perStatement, rows.count)
            var binds: [any SQLBindable] = []
            binds.reserveCapacity((end - start) * width)
            for row in rows[start..<end] { binds.append(contentsOf: row) }
            try db.run(end - start == perStatement ? full : statement(rows: end - start), binds)
            start = end
        }
    }

    /// Runs `sql` outside a transaction on the writing connection (a loader's `PRAGMA`s, `DROP` and
    /// `CREATE INDEX`, `ANALYZE`).
    public func executeOnWriter(_ sql: String) throws {
        try database.writeOutsideTransaction { db in try db.execute(sql) }
    }

    /// The first column of every row of `sql` (no parameters) on the writing connection, as text: a
    /// loader reads the schema's index definitions with it.
    public func textsOnWriter(_ sql: String) throws -> [String] {
        try database.write { db in try db.query(sql, []) { try $0.text(0) } }
    }
}
