import SignetSQL

/// PostgreSQL's spelling of the SQL layer's templates: `$N` parameters, `FOR UPDATE` row locks,
/// `BIGINT` times, `BOOLEAN` flags, `BYTEA` hashes, transaction-scoped advisory locks.
struct PostgresDialect: SQLDialect {
    func placeholder(_ index: Int) -> String { "$\(index)" }

    func token(_ name: String) -> String? {
        switch name {
        case "for_update": " FOR UPDATE"
        case "rowid": "ctid"
        case "int": "BIGINT"
        case "bool": "BOOLEAN"
        case "bytes": "BYTEA"
        case "serial": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        case "without_rowid": ""
        default: nil
        }
    }

    /// Held until the transaction ends; the key is the text's 64-bit hash.
    var lockStatement: String? { "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))" }

    var tableExistsQuery: String { "SELECT 1 WHERE to_regclass($1) IS NOT NULL" }
}
