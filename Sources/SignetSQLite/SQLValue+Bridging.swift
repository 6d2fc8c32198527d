import CSQLite
import CSignetShims
import Foundation
import SignetSQL

extension SQLValue {
    /// Binds the value to parameter `index` (1-based) of `statement`; returns the SQLite result code.
    /// Text and blobs are bound with `SQLITE_TRANSIENT` (SQLite copies them), booleans as 0/1.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .text(let text):
            var copy = text
            return copy.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    if let base = chars.baseAddress {
                        return signet_sqlite_bind_text(statement, index, base, Int32(chars.count))
                    }
                    // A non-nil pointer for the empty string, so it binds as '' and not NULL.
                    return "".withCString { signet_sqlite_bind_text(statement, index, $0, 0) }
                }
            }
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { signet_sqlite_bind_blob(statement, index, $0.baseAddress, Int32($0.count)) }
        case .int(let number):
            return sqlite3_bind_int64(statement, index, number)
        case .bool(let flag):
            return sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case .null:
            return sqlite3_bind_null(statement, index)
        }
    }
}
