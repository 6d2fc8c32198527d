import CSQLite
import Foundation
import SignetStore

/// The current row of a stepping statement; valid only inside the decode closure it is passed to.
/// Columns are 0-based. A NULL where a value is required throws `.corrupt`.
struct SQLiteRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func text(_ column: Int32) throws -> String {
        guard let value = optionalText(column) else { throw nullColumn(column) }
        return value
    }

    func optionalText(_ column: Int32) -> String? {
        guard !isNull(column), let chars = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: chars, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) throws -> [UInt8] {
        guard let value = optionalBlob(column) else { throw nullColumn(column) }
        return value
    }

    func optionalBlob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func int64(_ column: Int32) throws -> Int64 {
        guard !isNull(column) else { throw nullColumn(column) }
        return sqlite3_column_int64(statement, column)
    }

    func optionalInt(_ column: Int32) -> Int? {
        isNull(column) ? nil : Int(sqlite3_column_int64(statement, column))
    }

    func bool(_ column: Int32) throws -> Bool {
        try int64(column) != 0
    }

    func date(_ column: Int32) throws -> Date {
        Date(microsecondsSince1970: try int64(column))
    }

    func optionalDate(_ column: Int32) -> Date? {
        isNull(column) ? nil : Date(microsecondsSince1970: sqlite3_column_int64(statement, column))
    }

    /// A JSON array of strings stored as text.
    func stringArray(_ column: Int32) throws -> [String] {
        try StringList.decode(try text(column), column: "\(column)")
    }

    private func nullColumn(_ column: Int32) -> StoreError {
        let name = sqlite3_column_name(statement, column).map { String(cString: $0) } ?? "\(column)"
        return StoreError.corrupt("unexpected NULL in column \(name)")
    }
}
