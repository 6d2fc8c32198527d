import SignetSQL

/// SQLite's spelling of the SQL layer's templates: `?N` parameters, no row locks (`BEGIN
/// IMMEDIATE` takes the one write lock up front), `INTEGER` times and flags, `BLOB` hashes.
struct SQLiteDialect: SQLDialect {
    func placeholder(_ index: Int) -> String { "?\(index)" }

    func token(_ name: String) -> String? {
        switch name {
        case "for_update": ""
        case "rowid": "rowid"
        case "int", "bool": "INTEGER"
        case "bytes": "BLOB"
        case "serial": "INTEGER PRIMARY KEY AUTOINCREMENT"
        case "without_rowid": "WITHOUT ROWID"
        default: nil
        }
    }

    /// The single writer already serialises every write transaction.
    var lockStatement: String? { nil }

    var tableExistsQuery: String { "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1" }
}
