import Foundation
import SignetHTTP
import SignetJOSE
import SignetTesting
import Testing

/// `signet clients|users --admin-url URL --token T` drives a running `signet serve` through its
/// admin API: the same actions as on the data folder, refused without a token.
@Suite(.endToEndLimit) struct AdminCLITests {
    @Test func clientsAndUsersOnARemoteNode() async throws {
        let folder = try TemporaryDirectory(prefix: "admin-cli")
        defer { folder.remove() }
        let data = folder.appending("data")
        let server = try await TestServer.launchBinary(dataDirectory: data)
        let admin = try #require(server.adminURL).absoluteString
        let audience = server.issuer + "/admin/v1"
        // The admin client is made on the data folder, as an operator would on first start.
        let added = try await SignetBinary.run(["clients", "add", "ops", "--confidential", "--grant-type", "client_credentials",
                                                "--scope", "admin:clients:read admin:clients:write admin:users:read admin:users:write",
                                                "--resource", audience, "--data", data])
        #expect(added.status == 0, "\(added)")
        let secret = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("client_secret: ") }?.dropFirst(15))
        let tokenResponse = try await HTTPTestClient().post(server.baseURL.appendingPathComponent("token"), form: [
            ("grant_type", "client_credentials"), ("resource", audience),
            ("scope", "admin:clients:read admin:clients:write admin:users:read admin:users:write"),
        ], headers: ["Authorization": "Basic " + Data("ops:\(secret)".utf8).base64EncodedString()])
        let token = try #require(try tokenResponse.json()["access_token"]?.stringValue)
        let remote = ["--admin-url", admin, "--token", token]

        let app = try await SignetBinary.run(["clients", "add", "remote-app", "--redirect-uri", "com.example.remote:/cb"] + remote)
        #expect(app.status == 0, "\(app)")
        #expect(app.stdout.contains("added public client remote-app"))
        let list = try await SignetBinary.run(["clients", "list"] + remote)
        #expect(list.stdout.contains("remote-app") && list.stdout.contains("ops"), "\(list)")
        let service = try await SignetBinary.run(["clients", "add", "svc", "--confidential", "--grant-type", "client_credentials"] + remote)
        #expect(service.stdout.contains("client_secret: sgcs_"), "\(service)")
        let rotated = try await SignetBinary.run(["clients", "rotate-secret", "svc"] + remote)
        #expect(rotated.status == 0 && rotated.stdout.contains("client_secret: sgcs_"), "\(rotated)")
        let removed = try await SignetBinary.run(["clients", "remove", "remote-app"] + remote)
        #expect(removed.status == 0, "\(removed)")
        // The local view of the same store agrees.
        let local = try await SignetBinary.run(["clients", "list", "--data", data])
        #expect(!local.stdout.contains("remote-app") && local.stdout.contains("svc"), "\(local)")

        let user = try await SignetBinary.run(["users", "add", "dana@example.com", "--password-stdin"] + remote,
                                              stdin: Array("correct horse battery\n".utf8))
        #expect(user.status == 0, "\(user)")
        let disabled = try await SignetBinary.run(["users", "disable", "dana@example.com"] + remote)
        #expect(disabled.status == 0 && disabled.stdout.contains("disabled"), "\(disabled)")
        let users = try await SignetBinary.run(["users", "list", "--data", data])
        #expect(users.stdout.contains("disabled") && users.stdout.contains("dana@example.com"), "\(users)")

        // Refusals: no token, a bad token, a field the API names.
        let noToken = try await SignetBinary.run(["clients", "list", "--admin-url", admin])
        #expect(noToken.status == 64, "\(noToken)")
        let badToken = try await SignetBinary.run(["clients", "list", "--admin-url", admin, "--token", "nope"])
        #expect(badToken.status == 1 && badToken.stderr.contains("401 invalid_token"), "\(badToken)")
        let badURI = try await SignetBinary.run(["clients", "add", "bad", "--redirect-uri", "http://example.com/cb"] + remote)
        #expect(badURI.status == 1 && badURI.stderr.contains("redirect_uris[0]"), "\(badURI)")
        _ = await server.stop()
    }

    /// `signet keys …` and `signet audit list` with `--admin-url`: the remote node's keys and trail.
    @Test func keysAndAuditOnARemoteNode() async throws {
        let folder = try TemporaryDirectory(prefix: "admin-cli-keys")
        defer { folder.remove() }
        let data = folder.appending("data")
        let server = try await TestServer.launchBinary(dataDirectory: data)
        let admin = try #require(server.adminURL).absoluteString
        let audience = server.issuer + "/admin/v1"
        let scopes = "admin:keys:read admin:keys:write admin:audit:read"
        let added = try await SignetBinary.run(["clients", "add", "ops", "--confidential", "--grant-type", "client_credentials",
                                                "--scope", scopes, "--resource", audience, "--data", data])
        #expect(added.status == 0, "\(added)")
        let secret = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("client_secret: ") }?.dropFirst(15))
        func token(_ scope: String) async throws -> String {
            let response = try await HTTPTestClient().post(server.baseURL.appendingPathComponent("token"), form: [
                ("grant_type", "client_credentials"), ("resource", audience), ("scope", scope),
            ], headers: ["Authorization": "Basic " + Data("ops:\(secret)".utf8).base64EncodedString()])
            return try #require(try response.json()["access_token"]?.stringValue)
        }
        let remote = ["--admin-url", admin, "--token", try await token(scopes)]

        let listed = try await SignetBinary.run(["keys", "list"] + remote)
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("RS256") && listed.stdout.contains("active"), "\(listed)")
        let rotated = try await SignetBinary.run(["keys", "rotate", "--algorithm", "ES256", "--prepublish", "60"] + remote)
        #expect(rotated.status == 0 && rotated.stdout.contains("rotated ES256: new key"), "\(rotated)")
        let after = try await SignetBinary.run(["keys", "list"] + remote)
        #expect(after.stdout.contains(" next "), "\(after)")
        let local = try await SignetBinary.run(["keys", "list", "--data", data])
        #expect(local.stdout.contains(" next "), "\(local)")
        let badAlgorithm = try await SignetBinary.run(["keys", "rotate", "--algorithm", "none"] + remote)
        #expect(badAlgorithm.status == 1 && badAlgorithm.stderr.contains("algorithm"), "\(badAlgorithm)")
        let missing = try await SignetBinary.run(["keys", "retire", "no-such-key"] + remote)
        #expect(missing.status == 1 && missing.stderr.contains("404"), "\(missing)")

        let audit = try await SignetBinary.run(["audit", "list", "--event", "signing_keys_rotated", "--limit", "5"] + remote)
        #expect(audit.status == 0, "\(audit)")
        let lines = audit.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(audit)")
        let event = try JSONValue.parse(Array((lines.first ?? "").utf8))
        #expect(event["event"]?.stringValue == "signing_keys_rotated")
        #expect(event["actor"]?.stringValue == "ops")
        // Refusals: a token without the scope, no token, verify is local only.
        let readOnly = ["--admin-url", admin, "--token", try await token("admin:keys:read")]
        let refused = try await SignetBinary.run(["audit", "list"] + readOnly)
        #expect(refused.status == 1 && refused.stderr.contains("403 insufficient_scope"), "\(refused)")
        let rotateRefused = try await SignetBinary.run(["keys", "rotate"] + readOnly)
        #expect(rotateRefused.status == 1 && rotateRefused.stderr.contains("403 insufficient_scope"), "\(rotateRefused)")
        let noToken = try await SignetBinary.run(["keys", "list", "--admin-url", admin])
        #expect(noToken.status == 64, "\(noToken)")
        let verify = try await SignetBinary.run(["audit", "verify"] + remote)
        #expect(verify.status == 64, "\(verify)")
        _ = await server.stop()
    }
}
