/// What differs between SQLite and PostgreSQL, and nothing else: each backend provides one.
///
/// Statements and migrations are written once, in a template spelling:
/// - `$1`, `$2`, … are parameters (a number may repeat);
/// - `{for_update}` marks a read in a transaction that must lock the rows it returns;
/// - `{rowid}` is the table's physical row id (for deleting one of several equal rows);
/// - in migrations, column types `{time}` (microseconds since 1970), `{int}`, `{bytes}`, `{bool}`,
///   `{serial}` (an increasing integer key) and `{without_rowid}` after a table's closing
///   parenthesis.
/// Upserts (`INSERT … ON CONFLICT … DO UPDATE SET x = excluded.x`) are spelled the same in both.
public protocol SQLDialect: Sendable {
    /// The parameter with 1-based `index` (SQLite `?1`, PostgreSQL `$1`).
    func placeholder(_ index: Int) -> String
    /// The text of each `{token}` (without braces).
    func token(_ name: String) -> String?
    /// A statement taking one text parameter that serialises writers on it until the transaction
    /// ends, or nil when transactions already serialise every writer.
    var lockStatement: String? { get }
    /// A query with one parameter, a table name, that returns a row when the table exists.
    var tableExistsQuery: String { get }
}

extension SQLDialect {
    /// `template` in this dialect: placeholders and `{tokens}` replaced. Throws nothing and never
    /// fails: an unknown token is left as it is, so the database reports it.
    public func render(_ template: String) -> String {
        var output = ""
        output.reserveCapacity(template.utf8.count)
        var characters = template[...]
        while let next = characters.first {
            if next == "$", let digits = Self.leadingNumber(characters.dropFirst()) {
                output += placeholder(digits.value)
                characters = characters.dropFirst(1 + digits.length)
            } else if next == "{", let close = characters.firstIndex(of: "}"),
                      let text = token(String(characters[characters.index(after: characters.startIndex)..<close])) {
                output += text
                characters = characters[characters.index(after: close)...]
            } else {
                output.append(next)
                characters = characters.dropFirst()
            }
        }
        return output
    }

    private static func leadingNumber(_ text: Substring) -> (value: Int, length: Int)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int(digits) else { return nil }
        return (value, digits.count)
    }
}
