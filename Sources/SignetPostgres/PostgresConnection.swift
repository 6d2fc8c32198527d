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
    var preparedNames = TemplateCache<String>()
    /// A `BEGIN` asked for and not yet sent: it goes out in one pipeline with the transaction's
    /// first statement (`exec`), which saves a round trip per write transaction. A transaction that
    /// runs no statement sends nothing, its `COMMIT` or `ROLLBACK` included.
    var beginPending = false
    /// Writes held back inside the transaction (`write(_:_:check:)`), in order, each prepared:
    /// they go out in one pipeline with the transaction's next statement or its `COMMIT`.
    var held: [HeldWrite] = []
    /// Server-side prepared statements of row-checked writes (`checkedName`), by row count and
    /// template (found by the template's address, as `preparedNames`).
    var checkedNames: [Int: TemplateCache<String>] = [:]

    /// A write held back: its prepared statement, its parameters, and what the transaction fails
    /// with when its row check fails (nil: no check).
    struct HeldWrite {
        let name: String
        let params: [SQLValue]
        let mismatch: StoreError?
    }

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        finish()
    }

    /// Whether a transaction is open (or failed and not yet rolled back), or its `BEGIN` pending.
    var isInTransaction: Bool { beginPending || !held.isEmpty || !isIdle }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    /// `BEGIN` is deferred to the next statement (`beginPending`); `COMMIT` and `ROLLBACK` of a
    /// transaction that never sent it, and holds no write, have nothing to end. A rollback drops
    /// the writes held: they come after every statement sent, so after any savepoint.
    @discardableResult
    func run(_ sql: String, _ binds: [any SQLBindable]) throws -> Int {
        if binds.isEmpty {
            if sql == dialect.beginTransaction, isIdle, !beginPending {
                beginPending = true
                return 0
            }
            if sql.hasPrefix("ROLLBACK") { held.removeAll() }
            if beginPending, held.isEmpty, sql == "COMMIT" || sql == "ROLLBACK" {
                beginPending = false
                return 0
            }
        }
        return try exec(template: sql, binds.map(\.sqlValue)) { result in Self.changedRows(result) }
    }

    /// Inside a transaction, holds the write back for the next pipeline (`exec`), its row count
    /// checked by the server (`rowChecked`); outside one, or for a write the server cannot check,
    /// runs it at once and checks the count here.
    func write(_ sql: String, _ binds: [any SQLBindable], check: SQLRowCheck?) throws {
        let params = binds.map(\.sqlValue)
        if isInTransaction {
            let name: String? = if let check { try checkedName(sql, rows: check.rows, params) } else { try preparedName(sql, params) }
            if let name {
                held.append(HeldWrite(name: name, params: params, mismatch: check?.mismatch))
                return
            }
        }
        let changed = try exec(template: sql, params) { result in Self.changedRows(result) }
        if let check, changed != check.rows { throw check.mismatch }
    }

    /// Runs a statement and decodes every row it returns.
    func query<T>(_ sql: String, _ binds: [any SQLBindable], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        try exec(template: sql, binds.map(\.sqlValue)) { result in
            try (0..<Self.rowCount(result)).map { try decode(PostgresRow(result: result, row: $0)) }
        }
    }
}
