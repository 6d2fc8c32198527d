import Foundation
import SignetStore

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

    /// Runs a write (one `INSERT`, `UPDATE` or `DELETE` without `RETURNING`) whose outcome the
    /// caller does not read: with `check`, it must change exactly `check.rows` rows or fail with
    /// `check.mismatch`. The backend decides when it runs and is checked. Outside a transaction
    /// it runs at once (autocommit: on a mismatch the write stands and the error is thrown).
    /// Inside one, SQLite runs and checks it at once; PostgreSQL holds it back and sends it in one
    /// pipeline with the transaction's next statement or its `COMMIT`, the server checking the
    /// count, so a failure skips what follows in that pipeline, the `COMMIT` included. Either way
    /// its error (or mismatch) fails the transaction, which rolls back; but it may be thrown by a
    /// later statement of the transaction or its `COMMIT` rather than by this call, so use it only
    /// where any error ends the transaction. `ROLLBACK` (and `ROLLBACK TO`) drops writes still held.
    func write(_ sql: String, _ binds: [any SQLBindable], check: SQLRowCheck?) throws
}

extension SQLConnection {
    /// `write` for a backend that runs every statement at once (SQLite): runs it, then checks
    /// the count.
    public func write(_ sql: String, _ binds: [any SQLBindable], check: SQLRowCheck?) throws {
        let changed = try run(sql, binds)
        if let check, changed != check.rows { throw check.mismatch }
    }

    /// A write that must change exactly `rows` rows, or fail (and fail its transaction) with
    /// `mismatch`; see `write(_:_:check:)` for when it runs.
    public func write(_ sql: String, _ binds: [any SQLBindable], changing rows: Int, else mismatch: StoreError) throws {
        try write(sql, binds, check: SQLRowCheck(rows: rows, mismatch: mismatch))
    }

    /// A write whose count is not checked (an `INSERT` of one row changes one row or fails);
    /// see `write(_:_:check:)` for when it runs.
    public func write(_ sql: String, _ binds: [any SQLBindable]) throws {
        try write(sql, binds, check: nil)
    }

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
