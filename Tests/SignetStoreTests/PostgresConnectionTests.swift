@testable import SignetPostgres
import SignetTesting
import Testing

/// How a connection's libpq parameters and its row-checked writes are built; no server needed.
@Suite(.endToEndLimit) struct PostgresConnectionTests {
    /// The value given to `keyword`, the last one winning as in libpq, or nil.
    func value(_ keyword: String, in parameters: [(keyword: String, value: String)]) -> String? {
        parameters.last { $0.keyword == keyword }?.value
    }

    @Test(arguments: [
        "host=/run/pg port=5432 user=signet dbname=signet",
        "host=/run/pg application_name=connect_timeout",      // the word as a value sets nothing
        "postgres://signet@db.internal/signet",
        "postgresql://signet@db.internal:5433/signet?sslmode=verify-full",
        "not a connection string",                           // libpq reports it when connecting
    ])
    func connectTimeoutIsAddedWhenAbsent(conninfo: String) {
        let parameters = PostgresConnection.connectionParameters(conninfo: conninfo, database: nil, environment: [:])
        #expect(parameters.first?.keyword == "dbname")
        #expect(parameters.first?.value == conninfo)
        #expect(parameters.last?.keyword == "connect_timeout")
        #expect(value("connect_timeout", in: parameters) == String(PostgresConnection.defaultConnectTimeout))
        #expect(value("client_encoding", in: parameters) == "UTF8")
    }

    @Test(arguments: [
        "host=/run/pg connect_timeout=3 dbname=signet",
        "host=/run/pg connect_timeout = 3",
        "host=/run/pg connect_timeout='3'",
        "postgres://signet@db.internal/signet?connect_timeout=3",
        "postgresql://signet@db.internal/signet?sslmode=require&connect_timeout=3",
    ])
    func theOperatorsConnectTimeoutIsKept(conninfo: String) {
        let parameters = PostgresConnection.connectionParameters(conninfo: conninfo, database: nil, environment: [:])
        #expect(!parameters.contains { $0.keyword == "connect_timeout" })
        #expect(parameters.first?.value == conninfo)
    }

    @Test func pgconnectTimeoutInTheEnvironmentIsKept() {
        let conninfo = "host=/run/pg dbname=signet"
        let parameters = PostgresConnection.connectionParameters(conninfo: conninfo, database: nil,
                                                                 environment: ["PGCONNECT_TIMEOUT": "4"])
        #expect(!parameters.contains { $0.keyword == "connect_timeout" })
        let emptyVariable = PostgresConnection.connectionParameters(conninfo: conninfo, database: nil,
                                                                    environment: ["PGCONNECT_TIMEOUT": ""])
        #expect(value("connect_timeout", in: emptyVariable) == "10")
    }

    @Test func aDatabaseReplacesTheOneNamed() {
        let parameters = PostgresConnection.connectionParameters(conninfo: "host=/run/pg dbname=postgres",
                                                                 database: "signet_test_1", environment: [:])
        #expect(parameters.filter { $0.keyword == "dbname" }.map(\.value) == ["host=/run/pg dbname=postgres", "signet_test_1"])
        #expect(value("connect_timeout", in: parameters) == "10")
    }

    /// One INSERT, UPDATE or DELETE without RETURNING becomes a statement that checks its own
    /// row count; anything else is not (`write` runs it at once and checks the count itself).
    @Test func onlyAPlainWriteIsRowChecked() {
        let checked = PostgresConnection.rowChecked("UPDATE probe SET note = $1 WHERE id = $2", rows: 2)
        #expect(checked?.hasPrefix("WITH signet_write AS (UPDATE probe SET note = $1 WHERE id = $2 RETURNING 1) ") == true)
        #expect(checked?.contains("CASE count(*) WHEN 2 THEN 0") == true)
        #expect(PostgresConnection.rowChecked("delete FROM probe WHERE id = $1", rows: 1) != nil)
        for statement in ["SELECT 1", "UPDATE probe SET note = $1 RETURNING id", "DELETE FROM probe; DELETE FROM other",
                          "WITH x AS (SELECT 1) UPDATE probe SET note = 'x'"] {
            #expect(PostgresConnection.rowChecked(statement, rows: 1) == nil, "\(statement)")
        }
    }
}
