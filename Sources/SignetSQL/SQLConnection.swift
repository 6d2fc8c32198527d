import Foundation

/// One database connection, used by one thread at a time, as both backends implement it.
///
/// Statements are templates in the SQL layer's spelling (`$1`… placeholders, `{…}` dialect
/// tokens, see `SQLDialect`); each is rendered once per dialect (`SQLDialect.rendered`, shared by
/// every connection) and, where the backend has prepared statements, prepared once per connection
/// and kept for its life, keyed by the template, so no statement text is built per call.
public protocol SQLConnection: AnyObject {
    /// The dialect templates are rendered in.
    var dialect: SQLDialect { get }

    /// Whether a transaction is open (also one that failed and awaits its rollback).
    var isInTransaction: Bool { get }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ binds: [any SQLBindable]) throws -> Int

    /// Runs a statement and decodes every row it returns.
    func query<T>(_ sql: String, _ binds: [any SQLBindable], _ decode: (any SQLRow) throws -> T) throws -> [T]

    /// Runs SQL without parameters, already rendered (DDL; several statements separated by `;`).
    func execute(_ sql: String) throws
}

extension SQLConnection {
    /// Runs a statement with no parameters that returns no rows.
    @discardableResult
    public func run(_ sql: String) throws -> Int {
        try run(sql, [])
    }

    /// Runs a statement and returns its first row decoded by `decode`, or nil.
    public func one<T>(_ sql: String, _ binds: [any SQLBindable], _ decode: (any SQLRow) throws -> T) throws -> T? {
        try query(sql, binds, decode).first
    }

    /// Runs `body` in a write transaction that holds what it reads until it commits
    /// (`SQLDialect.beginTransaction`: SQLite `BEGIN IMMEDIATE` takes the write lock up front, so
    /// a read-then-write never fails half-way with `SQLITE_BUSY`; PostgreSQL `BEGIN`, READ
    /// COMMITTED, with `{for_update}` on the rows read), rolling back if it throws. The statements
    /// are cached like any other: they run on every write transaction. Inside a transaction
    /// already open (a caller's own, or SQLite's group commit) it is a `savepoint` instead.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try run(dialect.beginTransaction)
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if isInTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` as a savepoint of the open transaction: if it throws, what it wrote is rolled
    /// back (`ROLLBACK TO`) and the transaction goes on with what came before it. Savepoints nest
    /// (each `RELEASE` and `ROLLBACK TO` names the innermost). A failure that ends the whole
    /// transaction (SQLite: a full disk, an I/O error) leaves `isInTransaction` false.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try run("SAVEPOINT signet_savepoint")
        do {
            let result = try body()
            try run("RELEASE signet_savepoint")
            return result
        } catch {
            if isInTransaction {
                _ = try? run("ROLLBACK TO signet_savepoint")
                _ = try? run("RELEASE signet_savepoint")
            }
            throw error
        }
    }

    /// Serialises writers on `key` until the transaction ends, where the dialect needs it
    /// (PostgreSQL: a transaction-scoped advisory lock; SQLite's single writer already does).
    public func lock(_ key: String) throws {
        if let statement = dialect.lockStatement { try run(statement, [key]) }
    }
}
