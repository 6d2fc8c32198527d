import Foundation
import SignetStore

/// One libpq connection (`PGconn`).
///
/// Threading: libpq connections must be used by one thread at a time. `PostgresStorage` checks a
/// connection out of its pool for the length of one call, and that rule, not the compiler, is why
/// this type is `@unchecked Sendable`.
final class PostgresConnection: @unchecked Sendable {
    /// The `PGconn*` handle; valid until `deinit`.
    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        finish()
    }

    /// Runs `body` inside `BEGIN … COMMIT` (READ COMMITTED), rolling back if it throws.
    ///
    /// Read-then-write operations lock the rows they read (`SELECT … FOR UPDATE`) so the state read
    /// is the state written against; single-use operations need no transaction (one `UPDATE`).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if !isIdle { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ binds: [any PostgresBindable] = []) throws -> Int {
        try exec(sql, binds.map(\.postgresValue)) { result in Self.changedRows(result) }
    }

    /// Runs a statement and returns its first row decoded by `decode`, or nil.
    func one<T>(_ sql: String, _ binds: [any PostgresBindable] = [], _ decode: (PostgresRow) throws -> T) throws -> T? {
        try query(sql, binds, decode).first
    }

    /// Runs a statement and decodes every row it returns.
    func query<T>(_ sql: String, _ binds: [any PostgresBindable] = [], _ decode: (PostgresRow) throws -> T) throws -> [T] {
        try exec(sql, binds.map(\.postgresValue)) { result in
            try (0..<Self.rowCount(result)).map { try decode(PostgresRow(result: result, row: $0)) }
        }
    }
}
