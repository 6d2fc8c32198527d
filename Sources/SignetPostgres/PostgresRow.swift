import CLibPQ
import Foundation
import SignetCrypto
import SignetSQL
import SignetStore

/// One row of a text-format result; valid only inside the decode closure it is passed to.
/// Columns are 0-based.
struct PostgresRow: SQLRow {
    let result: OpaquePointer
    let row: Int32

    func isNull(_ column: Int32) -> Bool {
        PQgetisnull(result, row, column) != 0
    }

    func optionalText(_ column: Int32) -> String? {
        guard !isNull(column), let chars = PQgetvalue(result, row, column) else { return nil }
        let count = Int(PQgetlength(result, row, column))
        return chars.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// A `bytea` column; the server sends it in hex (`\x0a1b…`), the default `bytea_output`.
    func optionalBlob(_ column: Int32) throws -> [UInt8]? {
        guard let hex = optionalText(column) else { return nil }
        let digits = Array(hex.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"),
              let bytes = Hex.decode(digits[2...]) else {
            throw StoreError.corrupt("column \(name(column)) is not hex bytea")
        }
        return bytes
    }

    func optionalInt64(_ column: Int32) throws -> Int64? {
        guard let text = optionalText(column) else { return nil }
        guard let value = Int64(text) else { throw StoreError.corrupt("column \(name(column)) is not an integer") }
        return value
    }

    /// A `boolean` column, sent as `t` or `f`.
    func optionalBool(_ column: Int32) throws -> Bool? {
        switch optionalText(column) {
        case nil: return nil
        case "t": return true
        case "f": return false
        default: throw StoreError.corrupt("column \(name(column)) is not a boolean")
        }
    }

    func nullColumn(_ column: Int32) -> StoreError {
        StoreError.corrupt("unexpected NULL in column \(name(column))")
    }

    private func name(_ column: Int32) -> String {
        PQfname(result, column).map { String(cString: $0) } ?? "\(column)"
    }
}
