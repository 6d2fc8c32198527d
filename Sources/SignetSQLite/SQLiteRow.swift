import CSQLite
import Foundation
import SignetSQL
import SignetStore

/// The current row of a stepping statement; valid only inside the decode closure it is passed to.
/// Columns are 0-based.
struct SQLiteRow: SQLRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func optionalText(_ column: Int32) -> String? {
        guard !isNull(column), let chars = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: chars, count: count), as: UTF8.self)
    }

    func optionalBlob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func optionalInt64(_ column: Int32) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(statement, column)
    }

    /// Flags are integers 0/1.
    func optionalBool(_ column: Int32) -> Bool? {
        optionalInt64(column).map { $0 != 0 }
    }

    func nullColumn(_ column: Int32) -> StoreError {
        let name = sqlite3_column_name(statement, column).map { String(cString: $0) } ?? "\(column)"
        return StoreError.corrupt("unexpected NULL in column \(name)")
    }
}
