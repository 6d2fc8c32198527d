import Foundation

/// The shared database handle the storage facets run over: it hands out connections.
///
/// SQLite gives reads a pooled read-only connection and writes the one writer connection;
/// PostgreSQL gives every call a pooled connection. Every facet method takes exactly one
/// connection for its whole length.
public protocol SQLDatabase: Sendable {
    /// Runs `body` on a connection that only reads.
    @discardableResult
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` on a connection that may write.
    @discardableResult
    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
}

extension SQLDatabase {
    /// Runs `body` in one write transaction (`SQLConnection.transaction`).
    @discardableResult
    public func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write { db in try db.transaction { try body(db) } }
    }
}
