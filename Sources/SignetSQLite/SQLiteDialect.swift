import SignetSQL

/// SQLite's spelling of the SQL layer's templates.
enum SQLiteDialect {
    /// `?N` parameters; no row locks and no advisory locks: `BEGIN IMMEDIATE` takes the one write
    /// lock up front, which serialises every writer; `INTEGER` times and 0/1 flags, `BLOB` hashes;
    /// `{row_key}` is the rowid (no `AUTOINCREMENT`: a deleted grant's key may be reused, which
    /// nothing minds, since its tokens went with it).
    static let dialect = SQLDialect(
        parameterPrefix: "?", rowLock: "", rowID: "rowid", integer: "INTEGER", flag: "INTEGER", bytes: "BLOB",
        serialKey: "INTEGER PRIMARY KEY AUTOINCREMENT", rowKey: "INTEGER PRIMARY KEY", tableOptions: "WITHOUT ROWID",
        beginTransaction: "BEGIN IMMEDIATE",
        lockStatement: nil, tableExistsQuery: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1")
}
