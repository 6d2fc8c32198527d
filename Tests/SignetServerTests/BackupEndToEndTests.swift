import Foundation
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// `signet backup` while the real server serves refresh rotations; a restore into a fresh data
/// folder with the same master key starts, and a refresh token issued before the backup works.
@Suite(.endToEndLimit) struct BackupEndToEndTests {
    static let redirect = "http://127.0.0.1:49152/callback"

    /// One sign-in through the binary's pages; returns the refresh token.
    static func refreshToken(_ signet: BinaryServer, email: String, password: String) async throws -> String {
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let query = URLQuery.encode([
            ("response_type", "code"), ("client_id", "native"), ("redirect_uri", redirect),
            ("scope", "openid offline_access"), ("state", "st-backup"), ("nonce", "n-backup"),
            ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")])
        #expect(try await browser.open(signet.url(Routes.authorize + "?" + query)).status == 200)
        let code = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": email, "password": password])
            .requireRedirect().query().single("code")
        let tokens = try await HTTPTestClient().post(signet.url(Routes.token), form: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect), ("client_id", "native"),
            ("code_verifier", pkce.verifier)])
        #expect(tokens.status == 200, "\(tokens)")
        return try #require(try tokens.json()["refresh_token"]?.stringValue)
    }

    static func refresh(_ signet: BinaryServer, _ token: String) async throws -> TestResponse {
        try await HTTPTestClient().post(signet.url(Routes.token), form: [("grant_type", "refresh_token"), ("refresh_token", token),
                                                                         ("client_id", "native")])
    }

    @Test func backupDuringTrafficRestoresIntoAFreshFolderWhereAnOldRefreshTokenWorks() async throws {
        let folder = try TemporaryDirectory(prefix: "backup")
        defer { folder.remove() }
        let data = folder.appending("data")
        let config: JSONValue = ["clients": [["id": "native", "type": "public", "first_party": true,
                                              "redirect_uris": ["http://127.0.0.1/callback"],
                                              "grant_types": ["authorization_code", "refresh_token"]]]]
        let configPath = try folder.write(String(decoding: config.serialized(), as: UTF8.self), to: "signet.json")
        let password = "backup restore password"
        #expect(try await SignetBinary.run(["users", "add", "dora@example.com", "--password-stdin", "--data", data],
                                           stdin: Array((password + "\n").utf8)).succeeded)
        let signet = try await TestServer.launchBinary(arguments: ["--config", configPath], dataDirectory: data)
        let port = signet.port
        let backupPath = folder.appending("signet-backup.db")
        let kept: String
        do {
            kept = try await Self.refreshToken(signet, email: "dora@example.com", password: password)
            // Traffic: another family rotated over and over while the backup runs.
            let first = try await Self.refreshToken(signet, email: "dora@example.com", password: password)
            let traffic = Task { () throws -> Int in
                var other = first
                var rotations = 0
                for _ in 0..<40 {
                    let response = try await Self.refresh(signet, other)
                    guard response.status == 200, let next = try response.json()["refresh_token"]?.stringValue else { break }
                    other = next
                    rotations += 1
                }
                return rotations
            }
            let backup = try await SignetBinary.run(["backup", "--to", backupPath, "--config", configPath, "--data", data])
            #expect(backup.succeeded, "\(backup)")
            #expect(backup.stdout.contains("mode 0600"))
            #expect(try await traffic.value == 40)
            // Again to the same file: refused, the file untouched.
            let before = try Data(contentsOf: URL(fileURLWithPath: backupPath))
            let again = try await SignetBinary.run(["backup", "--to", backupPath, "--data", data])
            #expect(again.status == 1 && again.stderr.contains("refusing to overwrite"), "\(again)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: backupPath)) == before)
        } catch {
            _ = await signet.stop()
            throw error
        }
        _ = await signet.stop()
        let attributes = try FileManager.default.attributesOfItem(atPath: backupPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(!FileManager.default.fileExists(atPath: backupPath + "-wal") && !FileManager.default.fileExists(atPath: backupPath + "-shm"))

        // Restore: a fresh folder with the backup as signet.db and the same master key.
        let restored = folder.appending("restored")
        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: backupPath, toPath: restored + "/signet.db")
        try FileManager.default.copyItem(atPath: data + "/master.key", toPath: restored + "/master.key")
        let second = try await TestServer.launchBinary(arguments: ["--config", configPath], dataDirectory: restored,
                                                       listen: "127.0.0.1:\(port)")
        do {
            let refreshed = try await Self.refresh(second, kept)
            #expect(refreshed.status == 200, "\(refreshed)")
        } catch {
            _ = await second.stop()
            throw error
        }
        _ = await second.stop()
        let verified = try await SignetBinary.run(["audit", "verify", "--data", restored])
        #expect(verified.status == 0, "\(verified)")
    }

    /// With PostgreSQL, `signet backup` points at pg_dump and writes nothing.
    @Test func postgresIsSentToPgDump() async throws {
        let folder = try TemporaryDirectory(prefix: "backup-pg")
        defer { folder.remove() }
        let config: JSONValue = ["database": ["driver": "postgres", "url": "env:SIGNET_NO_SUCH_DATABASE_URL"],
                                 "master_key": "env:SIGNET_NO_SUCH_MASTER_KEY"]
        let path = try folder.write(String(decoding: config.serialized(), as: UTF8.self), to: "signet.json")
        let result = try await SignetBinary.run(["backup", "--to", folder.appending("x.db"), "--config", path])
        #expect(result.status == 69, "\(result)")
        #expect(result.stderr.contains("pg_dump"))
        #expect(!FileManager.default.fileExists(atPath: folder.appending("x.db")))
    }
}
