import Foundation

/// A statement parameter as the SQL layer hands it to a backend: each backend binds it in its own
/// way (SQLite: integers 0/1 for booleans, blobs; PostgreSQL: `boolean`, binary `bytea`).
public enum SQLValue: Sendable, Equatable {
    /// Text (`TEXT`).
    case text(String)
    /// A 64-bit integer; times are microseconds since 1970 (`Date.microsecondsSince1970`).
    case int(Int64)
    /// A flag.
    case bool(Bool)
    /// A byte string: hashes, encrypted keys (`BLOB` / `BYTEA`).
    case bytes([UInt8])
    /// SQL NULL.
    case null
}

/// A Swift value that can be a statement parameter: dates as integer microseconds since 1970,
/// byte arrays as blobs, nil as SQL NULL.
public protocol SQLBindable {
    /// The value as a parameter.
    var sqlValue: SQLValue { get }
}

extension String: SQLBindable {
    /// Text.
    public var sqlValue: SQLValue { .text(self) }
}

extension Int64: SQLBindable {
    /// An integer.
    public var sqlValue: SQLValue { .int(self) }
}

extension Int: SQLBindable {
    /// An integer.
    public var sqlValue: SQLValue { .int(Int64(self)) }
}

extension Bool: SQLBindable {
    /// A flag.
    public var sqlValue: SQLValue { .bool(self) }
}

extension Date: SQLBindable {
    /// Whole microseconds since 1970.
    public var sqlValue: SQLValue { .int(microsecondsSince1970) }
}

extension Array: SQLBindable where Element == UInt8 {
    /// A byte string.
    public var sqlValue: SQLValue { .bytes(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    /// The value, or NULL.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
