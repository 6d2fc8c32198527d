import SignetSQL

/// PostgreSQL's spelling of the SQL layer's templates.
enum PostgresDialect {
    /// `$N` parameters, `FOR UPDATE` row locks (READ COMMITTED), transaction-scoped advisory
    /// locks keyed by the text's 64-bit hash, `BIGINT` times, `BOOLEAN` flags, `BYTEA` hashes.
    static let dialect = SQLDialect(
        parameterPrefix: "$", rowLock: " FOR UPDATE", rowID: "ctid", integer: "BIGINT", flag: "BOOLEAN", bytes: "BYTEA",
        serialKey: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        rowKey: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", tableOptions: "", beginTransaction: "BEGIN",
        lockStatement: "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
        tableExistsQuery: "SELECT 1 WHERE to_regclass($1) IS NOT NULL")
}
