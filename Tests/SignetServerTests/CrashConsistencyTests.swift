import Foundation
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import Synchronization
import Testing

/// The real `signet serve` on SQLite, killed with SIGKILL at a random moment during a stream of
/// sign-ins, code redemptions and refresh rotations, five times, then started again on the same
/// data. What the client holds afterwards must be consistent with what the store kept:
/// - no code is redeemed twice (every code is tried again after each restart; at most one 200);
/// - no refresh family has two live refresh tokens (read from the database);
/// - every token the client received is valid or cleanly refused (userinfo 200 or 401
///   `invalid_token`; refresh 200 or 400 `invalid_grant`), never a 5xx or a broken answer;
/// - no signing key was lost (the JWKS after the restarts has every `kid` that signed a token);
/// - `PRAGMA integrity_check` says ok after every kill.
@Suite(.endToEndLimit) struct CrashConsistencyTests {
    static let redirect = "http://127.0.0.1:49152/callback"
    static let cycles = 5

    /// What the client has received, across every run of the server.
    final class Held: Sendable {
        struct State {
            var codes: [(code: String, verifier: String, successes: Int)] = []
            var families: [[String]] = []   // the refresh tokens of each sign-in, oldest first
            var accessTokens: [String] = []
            var keyIDs: Set<String> = []
            var operations = 0
        }
        let state = Mutex(State())
    }

    static func keyID(_ jwt: String) -> String? {
        guard let header = jwt.split(separator: ".").first, let bytes = Base64URL.decode(header),
              let object = try? JSONValue.parse(bytes).objectValue else { return nil }
        return object["kid"]?.stringValue
    }

    @Test func sigkillDuringSignInsRedemptionsAndRotationsLosesNothing() async throws {
        let folder = try TemporaryDirectory(prefix: "crash")
        defer { folder.remove() }
        let data = folder.appending("data")
        let password = "crash-password-1"
        let added = try await SignetBinary.run(["users", "add", "carol@example.com", "--password-stdin", "--data", data],
                                               stdin: Array((password + "\n").utf8))
        #expect(added.succeeded, "\(added)")
        let port = try FreePort.pick()
        let config: JSONValue = [
            "issuer": .string("http://127.0.0.1:\(port)"),
            "clients": [["id": "native", "type": "public", "first_party": true, "redirect_uris": ["http://127.0.0.1/callback"]]],
        ]
        let configPath = try folder.write(String(decoding: config.serialized(), as: UTF8.self), to: "signet.json")
        let held = Held()
        func launch() async throws -> BinaryServer {
            try await TestServer.launchBinary(arguments: ["--config", configPath], dataDirectory: data, listen: "127.0.0.1:\(port)")
        }

        for cycle in 0..<Self.cycles {
            let signet = try await launch()
            // Codes from earlier runs, tried again: a code that was redeemed must stay redeemed.
            try await Self.retryCodes(signet, held: held)
            let before = held.state.withLock { $0.operations }
            let stream = Task { await Self.stream(signet, password: password, held: held) }
            // A random moment once the stream is under way: after its fourth operation of this run
            // (a sign-in and its rotations; waited for, at most 60 s, so a slow machine still kills
            // mid-stream), then 0 to 600 ms more.
            for _ in 0..<6_000 where held.state.withLock({ $0.operations }) < before + 4 {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...600_000_000))
            let killed = await signet.stop(signal: SIGKILL)
            #expect(killed.result.status != 0, "cycle \(cycle): the server was not killed")
            await stream.value
            let check = try await Subprocess.run("/usr/bin/sqlite3", [folder.appending("data/signet.db"), "PRAGMA integrity_check;"])
            #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "cycle \(cycle): \(check)")
        }
        let operations = held.state.withLock { $0.operations }
        #expect(operations > Self.cycles * 3, "too few operations reached the server (\(operations))")

        let signet = try await launch()
        do {
            try await Self.checkAfterRestart(signet, held: held, database: folder.appending("data/signet.db"))
        } catch {
            _ = await signet.stop()
            throw error
        }
        _ = await signet.stop()
    }

    /// Sign-ins, redemptions and rotations until the server stops answering (bounded at 200 steps).
    static func stream(_ signet: BinaryServer, password: String, held: Held) async {
        let http = HTTPTestClient()
        for _ in 0..<200 {
            do {
                let browser = FormBrowser()
                let pkce = PKCEPair.generate()
                let url = signet.url(Routes.authorize + "?" + URLQuery.encode([
                    ("response_type", "code"), ("client_id", "native"), ("redirect_uri", redirect),
                    ("scope", "openid offline_access"), ("state", "s"), ("code_challenge", pkce.challenge),
                    ("code_challenge_method", "S256")]))
                _ = try await browser.open(url)
                let signedIn = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "carol@example.com", "password": password])
                let code = try signedIn.requireRedirect().query().single("code")
                let index = held.state.withLock {
                    $0.codes.append((code, pkce.verifier, 0))
                    $0.operations += 1
                    return $0.codes.count - 1
                }
                let redeemed = try await redeem(http, signet, code: code, verifier: pkce.verifier)
                guard redeemed.status == 200, var refresh = try record(redeemed, held: held, family: nil) else { continue }
                held.state.withLock { $0.codes[index].successes += 1 }
                let family = held.state.withLock { $0.families.append([refresh]); return $0.families.count - 1 }
                for _ in 0..<3 {
                    held.state.withLock { $0.operations += 1 }
                    let rotated = try await http.post(signet.url(Routes.token), form: [
                        ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
                    guard rotated.status == 200, let next = try record(rotated, held: held, family: family) else { break }
                    refresh = next
                }
            } catch {
                return   // the server is gone (killed)
            }
        }
    }

    static func redeem(_ http: HTTPTestClient, _ signet: BinaryServer, code: String, verifier: String) async throws -> TestResponse {
        try await http.post(signet.url(Routes.token), form: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect),
            ("client_id", "native"), ("code_verifier", verifier)])
    }

    /// Keeps the tokens of a 200 token response; returns its refresh token.
    static func record(_ response: TestResponse, held: Held, family: Int?) throws -> String? {
        let object = try response.json().objectValue ?? [:]
        let access = object["access_token"]?.stringValue
        let refresh = object["refresh_token"]?.stringValue
        held.state.withLock { state in
            if let access {
                state.accessTokens.append(access)
                if let kid = keyID(access) { state.keyIDs.insert(kid) }
            }
            if let id = object["id_token"]?.stringValue, let kid = keyID(id) { state.keyIDs.insert(kid) }
            if let family, let refresh { state.families[family].append(refresh) }
        }
        return refresh
    }

    /// Every code the client holds, redeemed again: a 200 only for a code that never had one,
    /// otherwise a clean 400 `invalid_grant`.
    static func retryCodes(_ signet: BinaryServer, held: Held) async throws {
        let http = HTTPTestClient()
        let codes = held.state.withLock { $0.codes }
        for (index, entry) in codes.enumerated() {
            let again = try await redeem(http, signet, code: entry.code, verifier: entry.verifier)
            if again.status == 200 {
                held.state.withLock { $0.codes[index].successes += 1 }
                _ = try record(again, held: held, family: nil)
            } else {
                #expect(again.status == 400, "\(again)")
                #expect(try again.json()["error"]?.stringValue == "invalid_grant")
            }
        }
        for entry in held.state.withLock({ $0.codes }) {
            #expect(entry.successes <= 1, "a code was redeemed \(entry.successes) times")
        }
    }

    static func checkAfterRestart(_ signet: BinaryServer, held: Held, database: String) async throws {
        try await retryCodes(signet, held: held)
        // No family has two live refresh tokens.
        let live = try await Subprocess.run("/usr/bin/sqlite3", [database, """
            SELECT g.grant_id FROM refresh_tokens r JOIN grants g ON g.id = r.grant_ref
            WHERE r.rotated_at IS NULL AND g.revoked_at IS NULL GROUP BY g.grant_id HAVING COUNT(*) > 1;
            """])
        #expect(live.status == 0, "\(live)")
        #expect(live.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "families with two live refresh tokens: \(live.stdout)")
        let families = try await Subprocess.run("/usr/bin/sqlite3", [database, "SELECT COUNT(DISTINCT grant_ref) FROM refresh_tokens;"])
        #expect((Int(families.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0, "no refresh family was stored")

        // No signing key was lost.
        let http = HTTPTestClient()
        let jwks = try JWKSet(jsonBytes: try await http.get(signet.url(Routes.jwks)).body)
        let published = Set(jwks.keys.compactMap(\.kid))
        let kids = held.state.withLock { $0.keyIDs }
        #expect(!kids.isEmpty)
        #expect(kids.isSubset(of: published), "kids missing from the JWKS: \(kids.subtracting(published))")

        // Every access token: valid, or refused with invalid_token (RFC 6750 §3.1).
        for token in held.state.withLock({ $0.accessTokens }) {
            let answer = try await http.get(signet.url(Routes.userinfo), headers: ["Authorization": "Bearer \(token)"])
            #expect(answer.status == 200 || (answer.status == 401 && (answer.header("WWW-Authenticate") ?? "").contains("invalid_token")),
                    "\(answer)")
        }
        // Every refresh token, newest of each family first: rotated, or refused with invalid_grant.
        for family in held.state.withLock({ $0.families }) {
            for token in family.reversed() {
                let answer = try await http.post(signet.url(Routes.token), form: [
                    ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "native")])
                if answer.status != 200 {
                    #expect(answer.status == 400, "\(answer)")
                    #expect(try answer.json()["error"]?.stringValue == "invalid_grant")
                }
            }
        }
        let check = try await Subprocess.run("/usr/bin/sqlite3", [database, "PRAGMA integrity_check;"])
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(check)")
    }
}
