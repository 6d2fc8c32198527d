import Foundation
import SignetSQL
import SignetStore

/// One libpq connection (`PGconn`).
///
/// Threading: libpq connections must be used by one thread at a time. `PostgresPool` checks a
/// connection out for the length of one call, and that rule, not the compiler, is why this type
/// is `@unchecked Sendable`.
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    /// The `PGconn*` handle; valid until `deinit`.
    let handle: OpaquePointer
    /// Statement text by template, rendered for PostgreSQL once per connection.
    var rendered: [String: String] = [:]
    let dialect: any SQLDialect = PostgresDialect()

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
    func run(_ sql: String, _ binds: [any SQLBindable]) throws -> Int {
        try exec(text(of: sql), binds.map(\.sqlValue)) { result in Self.changedRows(result) }
    }

    /// Runs a statement and decodes every row it returns.
    func query<T>(_ sql: String, _ binds: [any SQLBindable], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        try exec(text(of: sql), binds.map(\.sqlValue)) { result in
            try (0..<Self.rowCount(result)).map { try decode(PostgresRow(result: result, row: $0)) }
        }
    }

    /// Template `sql` rendered for PostgreSQL, from the cache after the first use.
    private func text(of sql: String) -> String {
        if let text = rendered[sql] { return text }
        let text = dialect.render(sql)
        rendered[sql] = text
        return text
    }
}
