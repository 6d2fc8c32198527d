import Dispatch
import Foundation
import SignetStore
import Synchronization

/// The PostgreSQL store: the same schema and semantics as `SQLiteStorage`, for several Signet
/// nodes sharing one database.
///
/// Each call checks a connection out of a small pool (opening one when none is idle, at most
/// `maxConnections` at once; callers beyond that wait), and puts it back when it is healthy and
/// outside any transaction. Every pooled connection runs under time limits (`statementTimeout`):
/// a statement that runs or waits for a lock longer is cancelled, and fails as `.backend`.
/// Every value is a bound parameter. Single-use operations are one
/// `UPDATE … RETURNING` (under READ COMMITTED a racing `UPDATE` waits for the row lock and then
/// re-checks its `WHERE` against the winner's row, so exactly one caller wins); read-then-write
/// operations lock what they read with `SELECT … FOR UPDATE` inside a transaction.
///
/// `signet serve` and the admin commands open it when `database.driver` is "postgres".
public final class PostgresStorage: SignetStorage, Sendable {
    /// The libpq connection string or URL the pool connects with.
    private let conninfo: String
    /// The database to use instead of the one `conninfo` names, or nil.
    private let database: String?
    private let idle = Mutex<[PostgresConnection]>([])
    private let slots: DispatchSemaphore
    /// The most connections open at once.
    public let maxConnections: Int
    /// The longest one statement may run, and the longest it may wait for a lock (seconds;
    /// `statement_timeout` and `lock_timeout` of every pooled connection); 0 sets no limit.
    public let statementTimeout: TimeInterval
    /// A transaction left idle this many times `statementTimeout` is ended by the server
    /// (`idle_in_transaction_session_timeout`), releasing its locks.
    public static let idleInTransactionFactor = 6
    /// For `temporary(adminConninfo:)`: the admin connection string whose server drops `database`
    /// on deinit, or nil.
    private let dropOnDeinit: String?

    /// Connects with `conninfo` (a libpq connection string, `host=… dbname=… user=…`, or a
    /// `postgresql://` URL) and applies pending migrations unless `migrate` is false.
    /// `statementTimeout` bounds each statement and lock wait (seconds; see `statementTimeout`).
    /// Throws `.backend` if the server cannot be reached or its schema is newer than this build.
    public convenience init(conninfo: String, migrate: Bool = true, maxConnections: Int = 8,
                            statementTimeout: TimeInterval = 10) throws {
        try self.init(conninfo: conninfo, database: nil, migrate: migrate, maxConnections: maxConnections,
                      statementTimeout: statementTimeout, dropOnDeinit: nil)
    }

    /// `database`, when given, replaces the database `conninfo` names; `dropOnDeinit` is the admin
    /// connection string that drops it when the store is released (tests only).
    init(conninfo: String, database: String?, migrate: Bool, maxConnections: Int,
         statementTimeout: TimeInterval = 10, dropOnDeinit: String?) throws {
        self.conninfo = conninfo
        self.database = database
        self.maxConnections = max(1, maxConnections)
        self.statementTimeout = max(0, statementTimeout)
        self.slots = DispatchSemaphore(value: self.maxConnections)
        self.dropOnDeinit = dropOnDeinit
        let version = try currentVersion()
        guard version <= PostgresMigrations.latest else {
            throw StoreError.backend("database schema version \(version) is newer than this build (\(PostgresMigrations.latest))")
        }
        if migrate { try self.migrate() }
    }

    deinit {
        // Closes the pooled connections (their deinit), so the database can be dropped.
        idle.withLock { $0.removeAll() }
        if let dropOnDeinit, let database,
           let admin = try? PostgresConnection.connect(conninfo: dropOnDeinit) {
            // An identifier cannot be a parameter; `database` is `signet_test_` and hex digits.
            try? admin.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        }
    }

    /// A migrated, empty database created for this store through `adminConninfo` (a role that may
    /// create databases) and dropped when the store is released. For tests.
    public static func temporary(adminConninfo: String, maxConnections: Int = 8,
                                 statementTimeout: TimeInterval = 10) throws -> PostgresStorage {
        let name = "signet_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection.connect(conninfo: adminConninfo).execute("CREATE DATABASE \(name)")
        do {
            return try PostgresStorage(conninfo: adminConninfo, database: name, migrate: true,
                                       maxConnections: maxConnections, statementTimeout: statementTimeout,
                                       dropOnDeinit: adminConninfo)
        } catch {
            if let again = try? PostgresConnection.connect(conninfo: adminConninfo) {
                try? again.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
            throw error
        }
    }

    /// For a store made by `temporary(adminConninfo:)`: the name of its database (so tests can
    /// point other processes at it); nil otherwise.
    public var temporaryDatabaseName: String? { dropOnDeinit == nil ? nil : database }

    /// An arbitrary, fixed key for `pg_advisory_lock`, so nodes starting together migrate one at a time.
    static let migrationLockKey: Int64 = 0x5369_676E_6574_4D31   // "SignetM1"

    /// Applies every migration newer than the database, each in its own transaction, holding a
    /// session advisory lock so nodes starting together do not race; returns the versions applied
    /// (empty when the schema is current). It runs on a connection of its own without the time
    /// limits: a migration may take long, and so may waiting for another node's.
    @discardableResult
    public func migrate() throws -> [Int] {
        try withConnection(limited: false) { db in
            try db.run("SELECT pg_advisory_lock($1)", [Self.migrationLockKey])
            defer { _ = try? db.run("SELECT pg_advisory_unlock($1)", [Self.migrationLockKey]) }
            try db.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    BIGINT PRIMARY KEY,
                    applied_at BIGINT NOT NULL
                )
                """)
            var applied: [Int] = []
            for (index, sql) in PostgresMigrations.all.enumerated() {
                let version = index + 1
                let didApply = try db.transaction { () throws -> Bool in
                    let done = try db.one("SELECT 1 FROM schema_migrations WHERE version = $1", [version]) { _ in true }
                    if done != nil { return false }
                    try db.execute(sql)
                    // Bookkeeping only, so the wall clock is fine here.
                    try db.run("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [version, Date()])
                    return true
                }
                if didApply { applied.append(version) }
            }
            return applied
        }
    }

    /// The highest migration applied to the database (0 for an empty one).
    public func currentVersion() throws -> Int {
        try withConnection { db in
            let exists = try db.one("SELECT to_regclass('schema_migrations') IS NOT NULL", []) { try $0.bool(0) }
            guard exists == true else { return 0 }
            return try db.one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", []) { try $0.int64(0) }
                .map { Int($0) } ?? 0
        }
    }

    /// Signing keys (this object).
    public var keys: any SigningKeyStore { self }
    /// Registered clients (this object).
    public var clients: any ClientStore { self }
    /// Users (this object).
    public var users: any UserStore { self }
    /// Pending `/authorize` requests (this object).
    public var authorizationRequests: any AuthorizationRequestStore { self }
    /// Authorization codes (this object).
    public var codes: any AuthorizationCodeStore { self }
    /// Grant families and refresh tokens (this object).
    public var refreshTokens: any RefreshTokenStore { self }
    /// SSO sessions (this object).
    public var sessions: any SessionStore { self }
    /// Consent (this object).
    public var consents: any ConsentStore { self }
    /// Nonces (this object).
    public var nonces: any NonceStore { self }
    /// Audit log (this object).
    public var audit: any AuditLog { self }
    /// Throttle counters (this object).
    public var throttle: any ThrottleStore { self }

    /// Deletes expired and ended artifacts; see `SignetStorage.purge(before:)`.
    public func purge(before: Date) throws -> Int {
        try withConnection { db in
            try db.transaction {
                var removed = 0
                removed += try db.run("DELETE FROM authorization_requests WHERE expires_at < $1", [before])
                removed += try db.run("DELETE FROM authorization_codes WHERE expires_at < $1", [before])
                removed += try db.run("DELETE FROM nonces WHERE expires_at < $1", [before])
                removed += try db.run("""
                    DELETE FROM sessions
                    WHERE absolute_expires_at < $1 OR idle_expires_at < $1 OR ended_at < $1
                    """, [before])
                // Tokens go with their grant (ON DELETE CASCADE); count them first.
                let doomed = "SELECT grant_id FROM grants WHERE absolute_expires_at < $1 OR revoked_at < $1"
                removed += try db.one("SELECT COUNT(*) FROM refresh_tokens WHERE grant_id IN (\(doomed))", [before]) {
                    Int(try $0.int64(0))
                } ?? 0
                removed += try db.run("DELETE FROM grants WHERE absolute_expires_at < $1 OR revoked_at < $1", [before])
                removed += try db.run("DELETE FROM throttle_hits WHERE at < $1", [before])
                return removed
            }
        }
    }

    // MARK: Connections

    /// Runs `body` on a connection from the pool, opening one if none is idle and waiting while
    /// `maxConnections` are in use. The connection goes back to the pool only if it is healthy
    /// and outside any transaction; otherwise it is closed. A statement that fails on its time
    /// limit leaves the connection idle (outside a transaction, the statement is simply cancelled;
    /// inside, `transaction` rolls back), so it goes back to the pool.
    ///
    /// With `limited` false, `body` gets a new connection without time limits, closed afterwards
    /// (it still counts against `maxConnections`).
    @discardableResult
    func withConnection<T>(limited: Bool = true, _ body: (PostgresConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        guard limited else {
            return try body(PostgresConnection.connect(conninfo: conninfo, database: database))
        }
        let db = try idle.withLock { $0.popLast() } ?? openLimitedConnection()
        defer {
            if db.isHealthy, db.isIdle {
                idle.withLock { $0.append(db) }
            }
        }
        return try body(db)
    }

    /// A new connection with this store's time limits set.
    private func openLimitedConnection() throws -> PostgresConnection {
        let db = try PostgresConnection.connect(conninfo: conninfo, database: database)
        // PostgreSQL's limits are milliseconds in a 32-bit integer.
        let statement = min(Int((statementTimeout * 1000).rounded(.up)), Int(Int32.max) / Self.idleInTransactionFactor)
        try db.setTimeLimits(statement: statement, idleInTransaction: statement * Self.idleInTransactionFactor)
        return db
    }
}
