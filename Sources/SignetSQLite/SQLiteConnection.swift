import CSQLite
import Foundation
import SignetSQL
import SignetStore

/// One SQLite connection with its cache of prepared statements.
///
/// Threading: a connection is opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`) and must be used
/// by one thread at a time. `SQLiteDatabase` guarantees that: the writer connection is used only
/// by the thread holding `SQLiteWriter`'s lock (a group commit's leader, or `withLock`), and read
/// connections are checked out of a pool for the length of one call. That rule, not the
/// compiler, is why this type is `@unchecked Sendable`.
final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    /// The `sqlite3*` handle; valid until `deinit`.
    let handle: OpaquePointer
    /// Prepared statements by template (from `SQLDialect.rendered`), kept for the life of the
    /// connection.
    var statements = TemplateCache<OpaquePointer>()
    var dialect: SQLDialect { SQLiteDialect.dialect }

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs a statement that returns no rows; returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ binds: [any SQLBindable]) throws -> Int {
        _ = try query(sql, binds) { _ in () }
        return Int(sqlite3_changes(handle))
    }
}
