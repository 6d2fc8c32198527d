import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// While PostgreSQL is down, the server says "retry" rather than "failed": 503 with
/// `temporarily_unavailable` and `Retry-After` on the OAuth endpoints, the pages and the admin
/// API, and it answers normally again once the database is back, with no restart. The database
/// is a private cluster the test stops and starts (`PrivatePostgres`).
@Suite(.serialized, .endToEndLimit) struct DatabaseUnavailableTests {
    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func aStoppedDatabaseIsA503WithRetryAfterAndTheServerRecovers() async throws {
        try RealPart.postgres.use()
        let postgres = try await PrivatePostgres()
        defer { postgres.remove() }
        let directory = try TemporaryDirectory(prefix: "pgdown")
        defer { directory.remove() }
        let urlFile = try directory.write(postgres.conninfo, to: "database.conninfo")
        let keyFile = try directory.write(MasterKey.generateHex(random: SystemRandomSource()), to: "master.key")
        let clients = try SignetConfiguration(parsing: Data(#"""
            {"clients": [{"id": "native", "redirect_uris": ["com.example.app:/callback"], "first_party": true}]}
            """#.utf8)).clients
        let server = try TestServer(adminListener: true) {
            $0.database.driver = .postgres
            $0.database.url = .file(urlFile)
            $0.database.statementTimeoutSeconds = 2
            $0.masterKey = .file(keyFile)
            $0.clients = clients
        }
        server.clock.advance(by: 1)
        let fixture = try AdminFixture(server: server)
        let adminToken = try await fixture.token(["admin:users:read"])
        let client = HTTPTestClient(timeoutSeconds: 30)
        let form = [("grant_type", "authorization_code"), ("code", "sgc_" + String(repeating: "A", count: 43)),
                    ("redirect_uri", "com.example.app:/callback"), ("client_id", "native"),
                    ("code_verifier", PKCEPair.generate().verifier)]
        let authorize = server.url(Routes.authorize, query: [
            ("response_type", "code"), ("client_id", "native"), ("redirect_uri", "com.example.app:/callback"), ("scope", "openid"),
            ("state", "s"), ("code_challenge", PKCEPair.generate().challenge), ("code_challenge_method", "S256")])
        func expectAnswered() async throws {
            let token = try await client.post(server.url("/token"), form: form)
            #expect(token.status == 400, "\(token)")
            #expect(try token.json()["error"]?.stringValue == "invalid_grant")
            #expect(try await fixture.call("GET", "/admin/v1/users", token: adminToken).status == 200)
        }
        try await expectAnswered()
        // A sign-in page of a pending request, to open while the database is down.
        let signIn = try #require(try await client.get(authorize).location.flatMap { URL(string: $0, relativeTo: server.url("/")) })

        try await postgres.pause()
        // Twice: the first request meets a pooled connection that broke, the second a refused connect.
        for _ in 0..<2 {
            let token = try await client.post(server.url("/token"), form: form)
            #expect(token.status == 503, "\(token)")
            #expect(try token.json()["error"]?.stringValue == "temporarily_unavailable")
            #expect(token.header("Retry-After") == "5")
            #expect(token.header("Cache-Control") == "no-store")
        }
        // Once the client's redirect URI is verified, the error goes back to the app.
        let redirected = try await client.get(authorize)
        #expect(redirected.status == 303, "\(redirected)")
        #expect(redirected.location?.contains("error=temporarily_unavailable") == true, "\(redirected)")
        let page = try await client.get(signIn.absoluteURL)
        #expect(page.status == 503, "\(page)")
        #expect(page.header("Retry-After") == "5")
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        let admin = try await fixture.call("GET", "/admin/v1/users", token: adminToken)
        expectAdminError(admin, 503, "temporarily_unavailable")
        #expect(admin.header("Retry-After") == "5")
        #expect(try await fixture.call("GET", "/readyz", token: nil).status == 503)

        try await postgres.resume()
        var recovered = false
        for _ in 0..<50 where !recovered {
            recovered = try await client.post(server.url("/token"), form: form).status == 400
            if !recovered { try await Task.sleep(nanoseconds: 200_000_000) }
        }
        #expect(recovered)
        try await expectAnswered()
        #expect(try await client.get(signIn.absoluteURL).status == 200)
    }
}
