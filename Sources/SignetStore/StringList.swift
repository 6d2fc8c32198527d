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
        do {
            return try JSONDecoder().decode([String].self, from: Data(json.utf8))
        } catch {
            throw StoreError.corrupt("column \(column) is not a JSON array of strings")
        }
    }
}
