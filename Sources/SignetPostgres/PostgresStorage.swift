import Foundation
import SignetSQL
import SignetStore

/// The PostgreSQL store: the same schema, statements and facets (`SQLStores`) as
/// `SQLiteStorage`, for several Signet nodes sharing one database.
///
/// Each call checks a connection out of a small pool (`PostgresPool`: at most `maxConnections`
/// at once; callers beyond that wait). Every pooled connection runs under time limits (`statementTimeout`):
/// a statement that runs or waits for a lock longer is cancelled, and fails as `.backend`.
/// Every value is a bound parameter. Single-use nonces and pending requests are one
/// `UPDATE … RETURNING` (under READ COMMITTED a racing `UPDATE` waits for the row lock and then
/// re-checks its `WHERE` against the winner's row, so exactly one caller wins); read-then-write
/// operations (codes, refresh rotation) lock what they read with `SELECT … FOR UPDATE` inside a
/// transaction.
///
/// `signet serve` and the admin commands open it when `database.driver` is "postgres".
public final class PostgresStorage: SQLStorage, Sendable {
    let pool: PostgresPool
    /// Every facet, over `pool`.
    public let stores: SQLStores
    /// The database to use instead of the one the connection string names, or nil.
    private var database: String? { pool.database }
    /// The most connections open at once.
    public var maxConnections: Int { pool.maxConnections }
    /// The longest one statement may run, and the longest it may wait for a lock (seconds;
    /// `statement_timeout` and `lock_timeout` of every pooled connection); 0 sets no limit.
    public var statementTimeout: TimeInterval { pool.statementTimeout }
    /// A transaction left idle this many times `statementTimeout` is ended by the server
    /// (`idle_in_transaction_session_timeout`), releasing its locks.
    public static let idleInTransactionFactor = 6

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
        self.pool = PostgresPool(conninfo: conninfo, database: database, maxConnections: maxConnections,
                                 statementTimeout: statementTimeout, dropOnDeinit: dropOnDeinit)
        self.stores = SQLStores(pool)
        let version = try currentVersion()
        guard version <= SQLMigrations.latest else {
            throw StoreError.backend("database schema version \(version) is newer than this build (\(SQLMigrations.latest))")
        }
        if migrate { try self.migrate() }
    }

    /// A migrated, empty database created for this store through `adminConninfo` (a role that may
    /// create databases) and dropped when the store and every facet taken from it are released.
    /// For tests.
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
    public var temporaryDatabaseName: String? { pool.dropOnDeinit == nil ? nil : database }

    /// An arbitrary, fixed key for `pg_advisory_lock`, so nodes starting together migrate one at a time.
    static let migrationLockKey: Int64 = 0x5369_676E_6574_4D31   // "SignetM1"

    /// Applies every migration of `SQLMigrations` newer than the database, each in its own
    /// transaction, holding a session advisory lock so nodes starting together do not race;
    /// returns the versions applied (empty when the schema is current). It runs on a connection of
    /// its own without the time limits: a migration may take long, and so may waiting for another
    /// node's.
    @discardableResult
    public func migrate() throws -> [Int] {
        try pool.withConnection(limited: false) { db in
            try db.run("SELECT pg_advisory_lock($1)", [Self.migrationLockKey])
            defer { _ = try? db.run("SELECT pg_advisory_unlock($1)", [Self.migrationLockKey]) }
            return try SQLMigrations.migrate(db)
        }
    }

    /// The highest migration applied to the database (0 for an empty one).
    public func currentVersion() throws -> Int {
        try pool.withConnection { db in try SQLMigrations.currentVersion(db) }
    }

    /// Runs `body` on a pooled connection (`PostgresPool.withConnection`).
    @discardableResult
    func withConnection<T>(limited: Bool = true, _ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.withConnection(limited: limited, body)
    }
}
