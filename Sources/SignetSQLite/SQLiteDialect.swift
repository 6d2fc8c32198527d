import SignetSQL

/// SQLite's spelling of the SQL layer's templates.
enum SQLiteDialect {
    /// `?N` parameters; no row locks and no advisory locks: `BEGIN IMMEDIATE` takes the one write
    /// lock up front, which serialises every writer; `INTEGER` times and 0/1 flags, `BLOB` hashes.
    static let dialect = SQLDialect(
        parameterPrefix: "?", rowLock: "", rowID: "rowid", integer: "INTEGER", flag: "INTEGER", bytes: "BLOB",
        serialKey: "INTEGER PRIMARY KEY AUTOINCREMENT", tableOptions: "WITHOUT ROWID", beginTransaction: "BEGIN IMMEDIATE",
        lockStatement: nil, tableExistsQuery: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1")
}
