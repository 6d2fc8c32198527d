import SignetSync

/// What differs between SQLite and PostgreSQL in the SQL text, as data: each backend provides one
/// value (`SQLiteDialect.dialect`, `PostgresDialect.dialect`), and `render` is the one function
/// that applies it.
///
/// Statements and migrations are written once, in a template spelling:
/// - `$1`, `$2`, … are parameters (a number may repeat);
/// - `{for_update}` marks a read in a transaction that must lock the rows it returns, and
///   `{for_update:t, g}` one that must lock only the rows it takes from the tables named (by
///   their aliases: PostgreSQL `FOR UPDATE OF t, g`), not those of a table it joins to read;
/// - `{rowid}` is the table's physical row id (for deleting one of several equal rows);
/// - in migrations, column types `{int}` (times as microseconds since 1970, and numbers),
///   `{bytes}`, `{bool}`, `{serial}` (an increasing integer key), `{row_key}` (an integer key the
///   database assigns, which may be reused after its row is deleted: SQLite's rowid) and
///   `{without_rowid}` after a table's closing parenthesis.
/// Upserts (`INSERT … ON CONFLICT … DO UPDATE SET x = excluded.x`) are spelled the same in both.
public struct SQLDialect: Sendable {
    /// What precedes a parameter's number (SQLite `?1`, PostgreSQL `$1`).
    let parameterPrefix: String
    /// The text of each `{token}`.
    let tokens: [String: String]
    /// The statement that starts a write transaction that holds what it reads.
    public let beginTransaction: String
    /// A statement taking one text parameter that serialises writers on it until the transaction
    /// ends, or nil when transactions already serialise every writer.
    public let lockStatement: String?
    /// A query with one parameter, a table name, that returns a row when the table exists.
    public let tableExistsQuery: String
    /// Statement text by template, shared by every connection of this dialect.
    private let renderedTexts = RenderedTexts()

    /// A dialect: `rowLock` is what `{for_update}` becomes; `integer`, `flag`, `bytes`,
    /// `serialKey` and `rowKey` are column types; `tableOptions` follows a table definition's parenthesis.
    public init(parameterPrefix: String, rowLock: String, rowID: String, integer: String, flag: String, bytes: String,
                serialKey: String, rowKey: String, tableOptions: String, beginTransaction: String, lockStatement: String?,
                tableExistsQuery: String) {
        self.parameterPrefix = parameterPrefix
        tokens = ["for_update": rowLock, "rowid": rowID, "int": integer, "bool": flag, "bytes": bytes,
                  "serial": serialKey, "row_key": rowKey, "without_rowid": tableOptions]
        self.beginTransaction = beginTransaction
        self.lockStatement = lockStatement
        self.tableExistsQuery = tableExistsQuery
    }

    /// `template` in this dialect: placeholders and `{tokens}` replaced. An unknown token is left
    /// as it is, so the database reports it.
    public func render(_ template: String) -> String {
        var output = ""
        output.reserveCapacity(template.utf8.count)
        var characters = template[...]
        while let next = characters.first {
            if next == "$", let digits = Self.leadingNumber(characters.dropFirst()) {
                output += parameterPrefix + String(digits.value)
                characters = characters.dropFirst(1 + digits.length)
            } else if next == "{", let close = characters.firstIndex(of: "}"),
                      let text = tokenText(String(characters[characters.index(after: characters.startIndex)..<close])) {
                output += text
                characters = characters[characters.index(after: close)...]
            } else {
                output.append(next)
                characters = characters.dropFirst()
            }
        }
        return output
    }

    /// `template` rendered, from the cache shared by every connection of this dialect after its
    /// first use: statements are a fixed set of templates, so each is rendered once per process,
    /// never per call or per connection (SQLite prepares from it, PostgreSQL sends it).
    public func rendered(_ template: String) -> String {
        renderedTexts.text(for: template) { render(template) }
    }

    /// The text of the token `name`: a plain one from `tokens`, or `for_update:` with the tables
    /// whose rows to lock (nothing where the dialect's row lock is nothing: SQLite).
    private func tokenText(_ name: String) -> String? {
        if let text = tokens[name] { return text }
        let lockOf = "for_update:"
        guard name.hasPrefix(lockOf), let lock = tokens["for_update"] else { return nil }
        return lock.isEmpty ? "" : lock + " OF " + name.dropFirst(lockOf.count)
    }

    private static func leadingNumber(_ text: Substring) -> (value: Int, length: Int)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int(digits) else { return nil }
        return (value, digits.count)
    }
}

/// The rendered text of each template, behind a lock: connections on many threads share it.
private final class RenderedTexts: Sendable {
    private let texts = ThreadMutex<[String: String]>([:])

    func text(for template: String, render: () -> String) -> String {
        texts.withLock { texts in
            if let text = texts[template] { return text }
            let text = render()
            texts[template] = text
            return text
        }
    }
}
