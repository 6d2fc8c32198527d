import Foundation

/// How the SQL stores keep times: whole microseconds since 1970 (SQLite `INTEGER`, PostgreSQL
/// `bigint`), rounded down.
extension Date {
    /// Whole microseconds since 1970, the form every time column uses (a `bigint` in PostgreSQL).
    public var microsecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1_000_000).rounded(.down))
    }

    /// The date `microseconds` after 1970.
    public init(microsecondsSince1970 microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}
