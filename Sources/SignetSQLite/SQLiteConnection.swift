import CSQLite
import Foundation
import SignetSQL
import SignetStore

/// One SQLite connection with its cache of prepared statements.
///
/// Threading: a connection is opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`) and must be used
/// by one thread at a time. `SQLiteDatabase` guarantees that: the writer connection sits behind a
/// `Mutex`, and read connections are checked out of a pool for the length of one call. That rule,
/// not the compiler, is why this type is `@unchecked Sendable`.
final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    /// The `sqlite3*` handle; valid until `deinit`.
    let handle: OpaquePointer
    /// Prepared statements by template (rendered for SQLite once, when first prepared), kept for
    /// the life of the connection.
    var statements: [String: OpaquePointer] = [:]
    let dialect: any SQLDialect = SQLiteDialect()

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    ///
    /// IMMEDIATE takes the write lock up front, so a read-then-write transaction never fails
    /// half-way with `SQLITE_BUSY` (snapshot) and other writers wait through `busy_timeout`.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        // Prepared (and cached) like any statement: these run on every write transaction.
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    /// Runs a statement that returns no rows; returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ binds: [any SQLBindable]) throws -> Int {
        _ = try query(sql, binds) { _ in () }
        return Int(sqlite3_changes(handle))
    }
}
