import CSQLite
import CSignetShims
import Foundation
import SignetSQL
import SignetStore

extension SQLiteConnection {
    /// Opens (creating if needed) the database at `path` and applies the per-connection settings:
    /// `busy_timeout`, `foreign_keys=ON`, `synchronous` (FULL unless told otherwise). WAL is set
    /// once by the caller.
    /// A `readOnly` connection refuses writes, so a read path can never change data by mistake.
    static func open(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5000,
                     synchronous: SQLiteSynchronous = .full) throws -> SQLiteConnection {
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard let handle = db else { throw StoreError.backend("sqlite3_open_v2 failed (\(rc))") }
        let connection = SQLiteConnection(handle: handle)   // closes the handle on every path below
        guard rc == SQLITE_OK else { throw connection.error(rc) }
        sqlite3_extended_result_codes(handle, 1)
        installBusyHandler(handle, milliseconds: busyTimeoutMilliseconds)
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute("PRAGMA synchronous = \(synchronous.pragma)")
        return connection
    }

    /// Waits up to about `milliseconds` for a lock another process holds (`signet purge`, an admin
    /// command beside a running server), trying again every millisecond. SQLite's own handler
    /// (`sqlite3_busy_timeout`) sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms between
    /// tries, so a waiter wakes up to tens of milliseconds after the lock is free: with `signet
    /// purge` beside a loaded server, the server's writer slept 78 ms per wait (`strace -c`), and
    /// every request queued behind it (bench/README.md, "Session 13 (lead)"). In-process waits never
    /// get here: the server's writes queue on its own write lock, its readers do not wait in WAL
    /// mode, and its checkpoints are PASSIVE.
    private static func installBusyHandler(_ handle: OpaquePointer, milliseconds: Int32) {
        let tries = UnsafeMutableRawPointer(bitPattern: Int(max(0, milliseconds)))
        sqlite3_busy_handler(handle, { tries, count in
            guard count < Int32(truncatingIfNeeded: Int(bitPattern: tries)) else { return 0 }
            usleep(1000)
            return 1
        }, tries)
    }

    /// Runs one or more SQL statements without parameters (pragmas, DDL, transaction control).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            throw Self.storeError(code: rc, message: text)
        }
    }

    /// Runs template `sql` with `binds` through the cached prepared statement, decoding every row.
    ///
    /// Always steps to `SQLITE_DONE` (so an autocommit `… RETURNING` write commits) and resets the
    /// statement afterwards, even when decoding throws.
    func query<T>(_ sql: String, _ binds: [any SQLBindable], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in binds.enumerated() {
            let rc = value.sqlValue.bind(to: statement, at: Int32(offset + 1))
            guard rc == SQLITE_OK else { throw error(rc) }
        }
        var rows: [T] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_ROW {
                rows.append(try decode(SQLiteRow(statement: statement)))
            } else if rc == SQLITE_DONE {
                return rows
            } else {
                throw error(rc)
            }
        }
    }

    /// The cached statement for template `sql`, preparing its rendered text on first use.
    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, dialect.rendered(sql), -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc) }
        statements.insert(statement, for: sql)
        return statement
    }

    /// The store error for result code `rc`, with the connection's message (no bound values in it).
    func error(_ rc: Int32) -> StoreError {
        Self.storeError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Maps uniqueness violations to `.duplicate`, missing parents to `.notFound`, a lock still held
    /// past the busy timeout (SQLITE_BUSY, SQLITE_LOCKED and their extended codes) to
    /// `.unavailable`, the rest to `.backend`.
    static func storeError(code: Int32, message: String) -> StoreError {
        switch code {
        case signet_sqlite_constraint_unique(), signet_sqlite_constraint_primarykey(): .duplicate
        case signet_sqlite_constraint_foreignkey(): .notFound
        case _ where code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED: .unavailable("sqlite \(code): \(message)")
        default: .backend("sqlite \(code): \(message)")
        }
    }
}
