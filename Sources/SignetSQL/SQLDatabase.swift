import Foundation

/// The shared database handle the storage facets run over: it hands out connections.
///
/// SQLite gives reads a pooled read-only connection and writes the one writer connection, where
/// several callers' writes can share one commit (group commit, `SQLiteWriter`); PostgreSQL gives
/// every call a pooled connection. Every facet method takes exactly one connection for its whole
/// length.
///
/// A write's `body` may run on another thread than its caller's (SQLite runs a group's bodies on
/// the thread that leads it, while the others wait), so it must not depend on thread-local or
/// task-local state; it runs before the call returns, never after.
public protocol SQLDatabase: Sendable {
    /// Runs `body` on a connection that only reads.
    @discardableResult
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` on a connection that may write, each statement atomic on its own: a throw
    /// does not undo the statements that ran before it (as in autocommit). Returns (or throws)
    /// only once what `body` wrote is committed.
    @discardableResult
    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` in one write transaction (`SQLConnection.transaction`): all of its writes or,
    /// if it throws, none. Returns (or throws) only once the transaction has committed (or
    /// rolled back); on SQLite it may share that commit with other callers' transactions, each
    /// its own savepoint, so the outcome is that of some serial order of them.
    @discardableResult
    func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` on the writing connection outside any transaction, for statements SQLite
    /// refuses or ignores inside one (`PRAGMA synchronous`, `PRAGMA foreign_keys`, `VACUUM`).
    @discardableResult
    func writeOutsideTransaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
}

extension SQLDatabase {
    /// A write transaction on a connection from `write`, for a backend whose `write` gives each
    /// call its own connection (PostgreSQL).
    @discardableResult
    public func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write { db in try db.transaction { try body(db) } }
    }

    /// `write`, for a backend whose `write` never runs inside a transaction it did not open.
    @discardableResult
    public func writeOutsideTransaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write(body)
    }
}
