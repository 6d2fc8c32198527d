import Foundation
import Testing
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetServer
@testable import SignetTesting

@Suite(.endToEndLimit) struct APIClientsCLITests {
    static func secret(in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("client_secret: ") }.map { String($0.dropFirst("client_secret: ".count)) }
    }

    /// Polls `body` until it returns true, for at most `seconds` (the client cache rechecks the
    /// store about once a second).
    static func eventually(_ seconds: Double = 5, _ body: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await body() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try await body()
    }

    @Test func addShowRotateWhileTheServerRuns() async throws {
        let temporary = try TemporaryDirectory(prefix: "clients")
        defer { temporary.remove() }
        let data = temporary.appending("data")
        let native = try await SignetBinary.run([
            "clients", "add", "native-app", "--public", "--redirect-uri", "http://127.0.0.1:8765/callback",
            "--redirect-uri", "com.example.app:/callback", "--post-logout-redirect-uri", "com.example.app:/logged-out",
            "--scope", "openid profile email offline_access", "--data", data])
        #expect(native.succeeded, "\(native)")
        #expect(Self.secret(in: native.stdout) == nil)
        let added = try await SignetBinary.run(["clients", "add", "svc", "--confidential", "--grant-type", "client_credentials",
                                                "--scope", "api.read", "--resource", "https://api.example.com",
                                                "--resource", "https://files.example.com", "--data", data])
        #expect(added.succeeded, "\(added)")
        let secret = try #require(Self.secret(in: added.stdout))
        #expect(secret.hasPrefix("sgcs_"))
        let shown = try await SignetBinary.run(["clients", "show", "svc", "--data", data])
        #expect(shown.succeeded && shown.stdout.contains("client_credentials"))
        #expect(shown.stdout.contains("resource:                   https://api.example.com\nresource:                   https://files.example.com"))
        let badResource = try await SignetBinary.run(["clients", "add", "bad-resource", "--confidential", "--grant-type", "client_credentials",
                                                      "--resource", "https://api.example.com#frag", "--data", data])
        #expect(!badResource.succeeded && badResource.stderr.contains("resources[0]"), "\(badResource)")
        #expect(!shown.stdout.contains(secret))
        let refused = try await SignetBinary.run(["clients", "add", "bad", "--confidential", "--redirect-uri", "com.example.app:/cb", "--data", data])
        #expect(!refused.succeeded && refused.stderr.contains("RFC 8252"), "\(refused)")

        let server = try TestServer(clock: ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))) {
            $0.dataDirectory = data
        }
        defer { server.stop() }
        let fixtureClient = HTTPTestClientShim(port: server.port)
        let grant = [("grant_type", "client_credentials")]
        #expect(try await fixtureClient.post("/token", grant, basic: ("svc", secret)).status == 200)

        // Rotation while the server runs: the old secret stops working within about a second.
        let rotated = try await SignetBinary.run(["clients", "rotate-secret", "svc", "--data", data])
        let newSecret = try #require(Self.secret(in: rotated.stdout))
        #expect(newSecret != secret)
        let oldFails = try await Self.eventually {
            let response = try await fixtureClient.post("/token", grant, basic: ("svc", secret))
            return response.status == 401 && (try? response.json()["error"]?.stringValue) == "invalid_client"
        }
        #expect(oldFails)
        #expect(try await fixtureClient.post("/token", grant, basic: ("svc", newSecret)).status == 200)

        // A client added from outside while the server runs is usable within about a second.
        let late = try await SignetBinary.run(["clients", "add", "late", "--confidential", "--grant-type", "client_credentials",
                                               "--scope", "x", "--data", data])
        let lateSecret = try #require(Self.secret(in: late.stdout))
        #expect(try await Self.eventually { try await fixtureClient.post("/token", grant, basic: ("late", lateSecret)).status == 200 })

        // Removal, too.
        #expect(try await SignetBinary.run(["clients", "remove", "late", "--data", data]).succeeded)
        #expect(try await Self.eventually { try await fixtureClient.post("/token", grant, basic: ("late", lateSecret)).status == 401 })
        let listed = try await SignetBinary.run(["clients", "list", "--data", data])
        #expect(listed.stdout.contains("native-app") && listed.stdout.contains("svc") && !listed.stdout.contains("late"))
    }

    @Test func configuredClientsAreUpsertedAtStartUp() async throws {
        let temporary = try TemporaryDirectory(prefix: "configured")
        defer { temporary.remove() }
        let secret = "sgcs_" + String(repeating: "k", count: 43)
        let secretFile = try temporary.write(secret + "\n", to: "svc.secret")
        let configuration = """
        {"clients": [
          {"id": "native", "redirect_uris": ["com.example.app:/callback"], "first_party": true},
          {"id": "svc", "secret": "file:\(secretFile)", "grant_types": ["client_credentials"], "scope": "api.read",
           "resources": ["https://api.example.com"]}
        ]}
        """
        let parsed = try SignetConfiguration(parsing: Data(configuration.utf8))
        let server = try TestServer(clock: ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))) {
            $0.clients = parsed.clients
        }
        defer { server.stop() }
        let stored = try #require(try server.environment.storage.clients.client(id: "svc"))
        #expect(stored.secretHash == server.application.authorizationServer.clients.hashSecret(secret))
        #expect(stored.isPublic == false)
        #expect(stored.allowedResources == ["https://api.example.com"])
        let native = try #require(try server.environment.storage.clients.client(id: "native"))
        #expect(native.isPublic && native.firstParty)
        let client = HTTPTestClientShim(port: server.port)
        #expect(try await client.post("/token", [("grant_type", "client_credentials")], basic: ("svc", secret)).status == 200)
    }
}

/// Form POSTs to a Signet on `port`, with Basic credentials when given.
struct HTTPTestClientShim {
    let port: Int

    func post(_ path: String, _ form: [(String, String)], basic: (String, String)? = nil) async throws -> TestResponse {
        var headers = HTTPHeaders()
        if let (id, secret) = basic {
            headers.set("Authorization", "Basic \(Data("\(id):\(secret)".utf8).base64EncodedString())")
        }
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw TestingError("bad path \(path)") }
        return try await HTTPTestClient().post(url, form: form, headers: headers)
    }
}
