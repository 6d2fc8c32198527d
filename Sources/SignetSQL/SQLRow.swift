import Foundation
import SignetStore

/// The current row of a result, as a backend reads it; valid only inside the decode closure it is
/// passed to. Columns are 0-based. A NULL where a value is required throws `.corrupt`.
public protocol SQLRow {
    /// Whether the column is NULL.
    func isNull(_ column: Int32) -> Bool
    /// A text column, or nil for NULL.
    func optionalText(_ column: Int32) -> String?
    /// A byte-string column (`BLOB` / `BYTEA`), or nil for NULL.
    func optionalBlob(_ column: Int32) throws -> [UInt8]?
    /// An integer column, or nil for NULL.
    func optionalInt64(_ column: Int32) throws -> Int64?
    /// A flag column (SQLite 0/1, PostgreSQL `boolean`), or nil for NULL.
    func optionalBool(_ column: Int32) throws -> Bool?
    /// The error for a NULL in a required column (names the column).
    func nullColumn(_ column: Int32) -> StoreError
}

extension SQLRow {
    /// A required text column.
    public func text(_ column: Int32) throws -> String {
        guard let value = optionalText(column) else { throw nullColumn(column) }
        return value
    }

    /// A required byte-string column.
    public func blob(_ column: Int32) throws -> [UInt8] {
        guard let value = try optionalBlob(column) else { throw nullColumn(column) }
        return value
    }

    /// A required integer column.
    public func int64(_ column: Int32) throws -> Int64 {
        guard let value = try optionalInt64(column) else { throw nullColumn(column) }
        return value
    }

    /// An integer column as `Int`, or nil for NULL.
    public func optionalInt(_ column: Int32) throws -> Int? {
        try optionalInt64(column).map { Int($0) }
    }

    /// A required flag column.
    public func bool(_ column: Int32) throws -> Bool {
        guard let value = try optionalBool(column) else { throw nullColumn(column) }
        return value
    }

    /// A required time column (microseconds since 1970).
    public func date(_ column: Int32) throws -> Date {
        Date(microsecondsSince1970: try int64(column))
    }

    /// A time column, or nil for NULL.
    public func optionalDate(_ column: Int32) throws -> Date? {
        try optionalInt64(column).map { Date(microsecondsSince1970: $0) }
    }

    /// A JSON array of strings stored as text.
    public func stringArray(_ column: Int32) throws -> [String] {
        try StringList.decode(try text(column), column: "\(column)")
    }

    /// A space-separated list of tokens stored as text (no JSON: read on every refresh).
    public func words(_ column: Int32) throws -> [String] {
        try text(column).split(separator: " ").map(String.init)
    }
}
