import Foundation

/// The column form of a list of strings in the SQL stores: a JSON array, the same for SQLite and
/// PostgreSQL.
public enum StringList {
    /// `values` as a JSON array.
    public static func json(_ values: [String]) throws -> String {
        if values.isEmpty { return "[]" }   // most rows: no Foundation encoder for the common case
        do {
            return String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
        } catch {
            throw StoreError.corrupt("cannot encode a string list as JSON")
        }
    }

    /// The strings of the JSON array `json`, read from the column named `column`.
    public static func decode(_ json: String, column: String) throws -> [String] {
        if json == "[]" { return [] }   // most rows (a grant without resources): no decoder per read
        if let plain = plainArray(json) { return plain }
        do {
            return try JSONDecoder().decode([String].self, from: Data(json.utf8))
        } catch {
            throw StoreError.corrupt("column \(column) is not a JSON array of strings")
        }
    }

    /// The strings of `json` if it is written the compact way with nothing escaped
    /// (`["pwd"]`, `["a","b"]`: no whitespace, no backslash, no control character), else nil and
    /// the caller decodes it with `JSONDecoder`. A session's `amr` is read this way at every
    /// `/authorize`, where a Foundation decoder cost more than the rest of the row.
    static func plainArray(_ json: String) -> [String]? {
        json.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
            // RFC 8259 §2, §7: '[' string *( ',' string ) ']', a string being '"' chars '"'.
            guard bytes.count >= 4, bytes[0] == UInt8(ascii: "["), bytes[bytes.count - 1] == UInt8(ascii: "]") else { return nil }
            var values: [String] = []
            var index = 1
            while true {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
                let start = index + 1
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") || bytes[end] < 0x20 { return nil }
                    end += 1
                }
                guard end < bytes.count else { return nil }
                values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                index = end + 1
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "]") { return index == bytes.count - 1 ? values : nil }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        } ?? nil
    }
}
