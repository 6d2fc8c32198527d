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
    var dialect: SQLDialect { PostgresDialect.dialect }
    /// Server-side prepared statements by template (`PQprepare` on first use, then
    /// `PQexecPrepared`: parsed and planned once per connection, not at every call), kept for
    /// the life of the connection.
    var preparedNames: [String: String] = [:]
    /// A `BEGIN` asked for and not yet sent: it goes out in one pipeline with the transaction's
    /// first statement (`exec`), which saves a round trip per write transaction. A transaction that
    /// runs no statement sends nothing, its `COMMIT` or `ROLLBACK` included.
    var beginPending = false

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        finish()
    }

    /// Whether a transaction is open (or failed and not yet rolled back), or its `BEGIN` pending.
    var isInTransaction: Bool { beginPending || !isIdle }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    /// `BEGIN` is deferred to the next statement (`beginPending`); `COMMIT` and `ROLLBACK` of a
    /// transaction that never sent it have nothing to end.
    @discardableResult
    func run(_ sql: String, _ binds: [any SQLBindable]) throws -> Int {
        if binds.isEmpty {
            if sql == dialect.beginTransaction, isIdle, !beginPending {
                beginPending = true
                return 0
            }
            if beginPending, sql == "COMMIT" || sql == "ROLLBACK" {
                beginPending = false
                return 0
            }
        }
        return try exec(template: sql, binds.map(\.sqlValue)) { result in Self.changedRows(result) }
    }

    /// Runs a statement and decodes every row it returns.
    func query<T>(_ sql: String, _ binds: [any SQLBindable], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        try exec(template: sql, binds.map(\.sqlValue)) { result in
            try (0..<Self.rowCount(result)).map { try decode(PostgresRow(result: result, row: $0)) }
        }
    }
}
