import Foundation
import SignetCore
import SignetCrypto
@testable import SignetPostgres
import SignetServer
import SignetTesting
import Testing

/// With PostgreSQL, a request whose statement waits for a lock longer than
/// `database.statement_timeout` fails with 500 `server_error` instead of hanging, and the same
/// request is answered normally once the lock is gone. Runs when `SIGNET_TEST_POSTGRES_URL`
/// names a server (scripts/run-tests.sh starts one).
@Suite(.endToEndLimit) struct PostgresTimeLimitTests {
    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func aTokenRequestBlockedByALockFailsWithServerErrorAndTheNextOneIsAnswered() async throws {
        let admin = try RealPart.postgres()
        let database = try PostgresStorage.temporary(adminConninfo: admin)   // dropped when released
        let name = try #require(database.temporaryDatabaseName)
        let directory = try TemporaryDirectory(prefix: "pgtimeout")
        defer { directory.remove() }
        let urlFile = try directory.write(PostgresNodesTests.conninfo(admin, database: name), to: "database.conninfo")
        let keyFile = try directory.write(MasterKey.generateHex(random: SystemRandomSource()), to: "master.key")
        let clients = try SignetConfiguration(parsing: Data(#"""
            {"clients": [{"id": "native", "redirect_uris": ["com.example.app:/callback"], "first_party": true}]}
            """#.utf8)).clients
        let server = try TestServer {
            $0.database.driver = .postgres
            $0.database.url = .file(urlFile)
            $0.database.statementTimeoutSeconds = 1
            $0.masterKey = .file(keyFile)
            $0.clients = clients
        }
        defer { server.stop() }

        let holder = try PostgresConnection.connect(conninfo: admin, database: name)
        // Were the server to wait for the lock after all, PostgreSQL ends this transaction after
        // 30 s and the request gets its 400: the test fails rather than hangs.
        try holder.execute("SET idle_in_transaction_session_timeout = '30s'")
        try holder.execute("BEGIN; LOCK TABLE authorization_codes IN ACCESS EXCLUSIVE MODE")
        let form = [("grant_type", "authorization_code"), ("code", "sgc_" + String(repeating: "A", count: 43)),
                    ("redirect_uri", "com.example.app:/callback"), ("client_id", "native"),
                    ("code_verifier", PKCEPair.generate().verifier)]
        let client = HTTPTestClient(timeoutSeconds: 60)
        let blocked = try await client.post(server.url("/token"), form: form)
        #expect(blocked.status == 500)
        #expect(try blocked.json()["error"]?.stringValue == "server_error")
        #expect(blocked.headers["cache-control"] == "no-store")

        try holder.execute("ROLLBACK")
        let answered = try await client.post(server.url("/token"), form: form)
        #expect(answered.status == 400)
        #expect(try answered.json()["error"]?.stringValue == "invalid_grant")
    }
}
