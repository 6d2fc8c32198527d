import Dispatch
import Foundation
import SignetSync
import SignetSQL

/// A bounded pool of libpq connections to one database, the handle the storage facets run over.
///
/// Each call checks a connection out (opening one when none is idle, at most `maxConnections`
/// at once; callers beyond that wait), and puts it back when it is healthy and outside any
/// transaction. Every pooled connection runs under time limits (`statementTimeout`).
final class PostgresPool: SQLDatabase {
    let conninfo: String
    /// The database to use instead of the one `conninfo` names, or nil.
    let database: String?
    let maxConnections: Int
    let statementTimeout: TimeInterval
    let idle = ThreadMutex<[PostgresConnection]>([])
    private let slots: DispatchSemaphore
    /// For `PostgresStorage.temporary(adminConninfo:)`: the admin connection string whose server
    /// drops `database` on deinit, or nil. The facets hold the pool, so the database lives as long
    /// as any of them.
    let dropOnDeinit: String?

    init(conninfo: String, database: String?, maxConnections: Int, statementTimeout: TimeInterval, dropOnDeinit: String?) {
        self.conninfo = conninfo
        self.database = database
        self.maxConnections = max(1, maxConnections)
        self.statementTimeout = max(0, statementTimeout)
        self.slots = DispatchSemaphore(value: self.maxConnections)
        self.dropOnDeinit = dropOnDeinit
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

    @discardableResult
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withConnection(body)
    }

    @discardableResult
    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withConnection(body)
    }

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
            if db.isHealthy, !db.isInTransaction {
                idle.withLock { $0.append(db) }
            }
        }
        return try body(db)
    }

    /// A new connection with this pool's time limits set.
    private func openLimitedConnection() throws -> PostgresConnection {
        let db = try PostgresConnection.connect(conninfo: conninfo, database: database)
        // PostgreSQL's limits are milliseconds in a 32-bit integer.
        let factor = PostgresStorage.idleInTransactionFactor
        let statement = min(Int((statementTimeout * 1000).rounded(.up)), Int(Int32.max) / factor)
        try db.setTimeLimits(statement: statement, idleInTransaction: statement * factor)
        return db
    }
}
