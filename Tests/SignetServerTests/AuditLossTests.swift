import Foundation
import SignetJOSE
@testable import SignetSQLite
import SignetTesting
import Testing

/// An audit event the store refuses is not lost silently: the change it records goes on, the
/// real `signet serve` logs one line naming the event (never its detail), and `/metrics` counts it.
@Suite(.endToEndLimit) struct AuditLossTests {
    @Test func aRefusedAuditAppendIsLoggedAndCounted() async throws {
        let folder = try TemporaryDirectory(prefix: "auditloss")
        defer { folder.remove() }
        let data = folder.appending("data")
        let server = try await TestServer.launchBinary(dataDirectory: data)
        let adminURL = try #require(server.adminURL)
        let audience = server.issuer + "/admin/v1"
        let added = try await SignetBinary.run(["clients", "add", "ops", "--confidential", "--grant-type", "client_credentials",
                                                "--scope", "admin:users:write", "--resource", audience, "--data", data])
        #expect(added.status == 0, "\(added)")
        let secret = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("client_secret: ") }?.dropFirst(15))
        let http = HTTPTestClient()
        let minted = try await http.post(server.url("/token"), form: [
            ("grant_type", "client_credentials"), ("resource", audience), ("scope", "admin:users:write"),
        ], headers: ["Authorization": "Basic " + Data("ops:\(secret)".utf8).base64EncodedString()])
        let token = try #require(try minted.json()["access_token"]?.stringValue, "\(minted)")

        // The trail refuses every new event from now on.
        let database = try SQLiteConnection.open(path: data + "/signet.db")
        try database.execute("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'audit refused'); END")
        let email = "lost.audit@example.com"
        let created = try await AdminFixture.raw("POST", "/admin/v1/users", port: adminURL.port ?? 0,
                                                 body: JSONValue.object(["email": .string(email)]).serialized(),
                                                 headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
        #expect(created.status == 201, "\(created)")

        let metrics = try await http.get(adminURL.appendingPathComponent("metrics"))
        let lost = metrics.text.split(separator: "\n").first { $0.hasPrefix("signet_audit_events_lost_total ") }
        #expect(lost == "signet_audit_events_lost_total 1", "\(metrics.text)")
        let stopped = await server.stop()
        let lines = stopped.result.stderr.split(separator: "\n").filter { $0.contains("could not be recorded") }
        #expect(lines.count == 1, "\(stopped.result.stderr)")
        #expect(lines.first?.contains("the event user_created could not be recorded") == true, "\(lines)")
        #expect(!stopped.result.stderr.contains(email) && !stopped.result.stderr.contains(String(secret)))
    }
}
