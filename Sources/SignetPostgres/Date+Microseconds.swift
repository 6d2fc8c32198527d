import Foundation

extension Date {
    /// Whole microseconds since 1970, the form every time column uses (a `bigint` in PostgreSQL).
    var microsecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1_000_000).rounded(.down))
    }

    /// The date `microseconds` after 1970.
    init(microsecondsSince1970 microseconds: Int64) {
        self.init(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}
