import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetSQL
import SignetSQLite
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The audit trail as real flows fill it over HTTP, and `signet audit verify` against a database
/// edited behind Signet's back.
@Suite(.endToEndLimit) struct AuditTrailEndToEndTests {
    /// A wrong password, the right one, a code, a refresh and a reuse of the old refresh token:
    /// each is one event with its method, actor, client, the caller's address and user agent.
    @Test func passwordSignInsAndRefreshReuseAreRecordedWithTheirCaller() async throws {
        let fixture = try Interactive()
        defer { fixture.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        #expect(try await browser.open(fixture.authorizeURL(pkce: pkce)).status == 200)
        let refused = try await fixture.submitCredentials(browser, password: "not the password")
        #expect(refused.redirect == nil)
        let code = try await fixture.submitCredentials(browser).requireRedirect().query().single("code")
        let tokens = try await fixture.redeem(code: code, pkce: pkce)
        #expect(tokens.status == 200)
        let refresh = try #require(try tokens.json()["refresh_token"]?.stringValue)
        let http = HTTPTestClient()
        let form = [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")]
        #expect(try await http.post(fixture.server.url(Routes.token), form: form).status == 200)
        // Past the grace period a second use of the rotated token is reuse (RFC 9700 §4.14.2).
        fixture.server.clock.advance(by: TimeInterval(fixture.server.environment.configuration.lifetimes.refreshGrace + 1))
        let reused = try await http.post(fixture.server.url(Routes.token), form: form)
        #expect(reused.status == 400)
        #expect(try reused.json()["error"]?.stringValue == "invalid_grant")

        let events = try fixture.server.environment.storage.audit.listAudit(AuditQuery(limit: 100)).reversed()
        let failed = try #require(events.first { $0.event == "sign_in_failed" })
        #expect(failed.method == "pwd" && failed.reason == "invalid_credentials" && failed.actor == nil)
        #expect(failed.address == "127.0.0.1")
        #expect(failed.userAgent?.isEmpty == false)
        let signIn = try #require(events.first { $0.event == "sign_in" })
        #expect(signIn.method == "pwd" && signIn.subjectID == fixture.user.id && signIn.actor == "user:\(fixture.user.id)")
        #expect(signIn.address == "127.0.0.1")
        let reuse = try #require(events.first { $0.event == "refresh_token_reuse" })
        #expect(reuse.clientID == "native" && reuse.actor == "client:native" && reuse.subjectID == fixture.user.id)
        #expect(reuse.reason == "family_revoked" && reuse.address == "127.0.0.1")
        #expect(failed.sequence < signIn.sequence && signIn.sequence < reuse.sequence)
        guard case .intact = try fixture.server.environment.storage.audit.verifyAudit() else {
            Issue.record("the chain is broken after real flows")
            return
        }
    }

    /// Behind a trusted proxy, the address recorded is the client the proxy names; a user agent
    /// of 4 KiB with control characters is cut to 256 bytes and made printable.
    @Test func theTrustedClientAddressAndABoundedUserAgentAreRecorded() async throws {
        let fixture = try Interactive { $0.http.trustedProxies = ["127.0.0.1"] }
        defer { fixture.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        #expect(try await browser.open(fixture.authorizeURL(pkce: pkce)).status == 200)
        let form = try #require(browser.forms.first { $0.action.path == Routes.signIn })
        let pairs = try form.submission(overrides: ["email": Interactive.email, "password": "wrong password"])
        let body = URLQuery.encode(pairs)
        let response = try await HTTPTestClient(cookies: browser.cookies).send(
            method: "POST", url: fixture.server.url(Routes.signIn), body: Array(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "203.0.113.9",
                      "User-Agent": "evil\u{1}" + String(repeating: "é", count: 2048)])
        #expect(response.status == 303)
        let failed = try #require(try fixture.server.environment.storage.audit.listAudit(AuditQuery(event: "sign_in_failed", limit: 1)).first)
        #expect(failed.address == "203.0.113.9")
        let agent = try #require(failed.userAgent)
        #expect(agent.utf8.count <= AuditEvent.userAgentLimit && agent.utf8.count >= AuditEvent.userAgentLimit - 1)
        #expect(agent.hasPrefix("evil?é"))
    }

    /// `signet audit verify` says OK and prints the head as an anchor, then finds each tampering
    /// on its own copy of the data folder (the database by `signet backup`, the master key beside
    /// it), edited with the sqlite3 command or, for the rewrites, with Signet's own chain code
    /// without the key; `audit list` prints the CLI's admin changes as JSON lines with the actor
    /// `cli` and no secret.
    @Test func verifyFindsEveryTampering() async throws {
        let folder = try TemporaryDirectory(prefix: "audit-verify")
        defer { folder.remove() }
        let data = folder.appending("data")
        let added = try await SignetBinary.run(["clients", "add", "svc", "--confidential", "--grant-type", "client_credentials",
                                                "--data", data])
        #expect(added.succeeded, "\(added)")
        let secret = try #require(APIClientsCLITests.secret(in: added.stdout))
        let rotated = try await SignetBinary.run(["clients", "rotate-secret", "svc", "--data", data])
        let newSecret = try #require(APIClientsCLITests.secret(in: rotated.stdout))
        let user = try await SignetBinary.run(["users", "add", "carol@example.com", "--no-password", "--data", data])
        #expect(user.succeeded, "\(user)")
        let userID = user.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await SignetBinary.run(["users", "disable", userID, "--data", data]).succeeded)
        #expect(try await SignetBinary.run(["users", "enable", userID, "--data", data]).succeeded)
        #expect(try await SignetBinary.run(["keys", "rotate", "--data", data]).succeeded)

        let ok = try await SignetBinary.run(["audit", "verify", "--data", data])
        #expect(ok.status == 0 && ok.stdout.hasPrefix("audit chain OK:"), "\(ok)")
        let printed = try #require(ok.stdout.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        let anchor = try #require(AuditAnchor(parsing: printed), "\(ok.stdout)")
        let listed = try await SignetBinary.run(["audit", "list", "--data", data])
        #expect(listed.status == 0, "\(listed)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        let objects = try lines.map { try #require(try JSONValue.parse($0).objectValue) }
        let names = objects.compactMap { $0["event"]?.stringValue }
        #expect(names.starts(with: [AuditChain.keyedEvent, "client_created", "client_secret_rotated", "user_created", "user_disabled",
                                    "user_enabled"]), "\(names)")
        #expect(names.contains("signing_key_rotated"))
        #expect(objects.dropFirst().allSatisfy { $0["actor"]?.stringValue == "cli" })
        #expect(objects.map { $0["sequence"]?.doubleValue ?? 0 } == (1...objects.count).map(Double.init))
        #expect(anchor.sequence == Int64(objects.count) && Hex.encode(anchor.hash) == objects.last?["hash"]?.stringValue)
        let created = objects[1]["detail"]?.objectValue?["after"]?.objectValue
        #expect(created?["secret"]?.stringValue == "[redacted]" && created?["id"]?.stringValue == "svc")
        for hidden in [secret, newSecret, "carol@example.com"] { #expect(!listed.stdout.contains(hidden)) }
        let filtered = try await SignetBinary.run(["audit", "list", "--event", "user_disabled", "--subject", userID, "--data", data])
        #expect(filtered.stdout.split(separator: "\n").count == 1, "\(filtered)")
        #expect(try await SignetBinary.run(["audit", "verify", "--expect-head", printed, "--expect-at-least", "\(anchor.sequence)",
                                            "--data", data]).status == 0)

        let n = anchor.sequence
        let tamperings: [(name: String, edit: Tampering, options: [String], expected: String)] = [
            ("edited", .sql("UPDATE audit_events SET reason = 'nothing to see' WHERE sequence = 3;"), [],
             "audit chain BROKEN at sequence 3: its content does not match its hash"),
            ("deleted", .sql("DELETE FROM audit_events WHERE sequence = 3;"), [], "audit chain BROKEN at sequence 3: missing"),
            ("reordered", .sql("""
             UPDATE audit_events SET sequence = -1 WHERE sequence = 3;
             UPDATE audit_events SET sequence = 3 WHERE sequence = 4;
             UPDATE audit_events SET sequence = 4 WHERE sequence = -1;
             """), [], "audit chain BROKEN at sequence 3: does not chain from the event before it"),
            ("truncated", .sql("DELETE FROM audit_events WHERE sequence = \(n);"), [],
             "audit chain BROKEN at sequence \(n): missing: the chain's recorded head is \(n)"),
            ("truncated-head-moved", .sql(Self.truncation(to: n - 2)), ["--expect-head", printed],
             "audit chain BROKEN at sequence \(n - 1): missing: the chain ends before the expected sequence \(n)"),
            ("truncated-at-least", .sql(Self.truncation(to: n - 2)), ["--expect-at-least", "\(n)"],
             "audit chain BROKEN at sequence \(n - 1): missing: the chain ends before the expected sequence \(n)"),
            ("prefix-deleted", .sql("""
             UPDATE audit_chain SET base_sequence = 3, base_hash = (SELECT hash FROM audit_events WHERE sequence = 3);
             DELETE FROM audit_events WHERE sequence <= 3;
             """), [], "audit chain BROKEN at sequence 3: the checkpoint is not the one the latest purge recorded (none)"),
            ("rewritten", .rewrite(from: 1), [], "audit chain BROKEN at sequence 1: no event is keyed with the master key"),
            ("rewritten-anchored", .rewrite(from: 1), ["--expect-head", printed],
             "audit chain BROKEN at sequence \(n): its hash is not the anchor's"),
            ("tail-rewritten", .rewrite(from: 4), [],
             "audit chain BROKEN at sequence 4: its hash is not keyed although the chain is keyed from sequence 1"),
            ("other-key", .otherKey, [], "audit chain BROKEN at sequence 1: its content does not match its hash"),
        ]
        for tampering in tamperings {
            let copy = try await Self.copy(data, to: folder.appending(tampering.name))
            switch tampering.edit {
            case .sql(let sql):
                let edit = try await Subprocess.run("/usr/bin/sqlite3", [copy + "/signet.db", sql])
                #expect(edit.status == 0, "\(edit.stderr)")
            case .rewrite(let first): try Self.rewriteWithoutTheKey(copy + "/signet.db", from: first)
            case .otherKey:
                try Data((String(repeating: "ab", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: copy + "/master.key"))
            }
            let checked = try await SignetBinary.run(["audit", "verify", "--data", copy] + tampering.options)
            #expect(checked.status == 1, "\(tampering.name): \(checked)")
            #expect(checked.stdout.contains(tampering.expected), "\(tampering.name): \(checked.stdout)")
        }
        // Cut with the head moved back, the chain itself is consistent: only an anchor shows it.
        let quiet = try await SignetBinary.run(["audit", "verify", "--data", folder.appending("truncated-head-moved")])
        #expect(quiet.status == 0, "\(quiet)")
        // A copy without its master key is refused, not verified under a new key.
        let keyless = try await Self.copy(data, to: folder.appending("keyless"))
        try FileManager.default.removeItem(atPath: keyless + "/master.key")
        let refused = try await SignetBinary.run(["audit", "verify", "--data", keyless])
        #expect(refused.status != 0 && refused.stderr.contains("master_key"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: keyless + "/master.key"))
        // Bad anchors are usage errors.
        let badAnchor = try await SignetBinary.run(["audit", "verify", "--expect-head", "12:beef", "--data", data])
        #expect(badAnchor.status == 64 && badAnchor.stderr.contains("--expect-head needs SEQ:HASH"), "\(badAnchor)")
        // The original is untouched.
        #expect(try await SignetBinary.run(["audit", "verify", "--data", data]).status == 0)
    }

    /// `signet serve` logs an `audit anchor SEQ:HASH` line after each event it records (and
    /// nothing else in it); `verify --expect-head` with that line's anchor passes, and fails once
    /// the tail is cut and the head moved back.
    @Test func theServerLogsAnAnchorThatVerifyChecks() async throws {
        let folder = try TemporaryDirectory(prefix: "audit-anchor")
        defer { folder.remove() }
        let data = folder.appending("data")
        let server = try await TestServer.launchBinary(dataDirectory: data)
        let audience = server.issuer + "/admin/v1"
        let added = try await SignetBinary.run(["clients", "add", "ops", "--confidential", "--grant-type", "client_credentials",
                                                "--scope", "admin:clients:write", "--resource", audience, "--data", data])
        #expect(added.status == 0, "\(added)")
        let secret = try #require(APIClientsCLITests.secret(in: added.stdout))
        let tokenResponse = try await HTTPTestClient().post(server.url("/token"), form: [
            ("grant_type", "client_credentials"), ("resource", audience), ("scope", "admin:clients:write"),
        ], headers: ["Authorization": "Basic " + Data("ops:\(secret)".utf8).base64EncodedString()])
        let token = try #require(try tokenResponse.json()["access_token"]?.stringValue)
        let remote = ["--admin-url", try #require(server.adminURL).absoluteString, "--token", token]
        for name in ["app-one", "app-two"] {
            let app = try await SignetBinary.run(["clients", "add", name, "--redirect-uri", "com.example.app:/cb"] + remote)
            #expect(app.status == 0, "\(app)")
        }
        let anchorLines = { server.stderr.split(separator: "\n").filter { $0.contains("audit anchor ") }.map(String.init) }
        #expect(await Polling.wait(seconds: 10) { anchorLines().count >= 2 }, "\(server.stderr)")
        _ = await server.stop()
        let logged = anchorLines()
        let anchors = try logged.map { line in
            let message = try #require(try JSONValue.parse(line).objectValue?["msg"]?.stringValue)
            #expect(message.hasPrefix("audit anchor "), "\(line)")
            return try #require(AuditAnchor(parsing: String(message.dropFirst("audit anchor ".count))), "\(line)")
        }
        let head = try #require(anchors.last)
        let events = try await SignetBinary.run(["audit", "list", "--limit", "2", "--data", data])
        let stored = try events.stdout.split(separator: "\n").map { try #require(try JSONValue.parse(String($0)).objectValue) }
        #expect(stored.map { $0["event"]?.stringValue } == ["client_created", "client_created"])
        #expect(anchors.suffix(2).map(\.description) == stored.map { "\(Int($0["sequence"]?.doubleValue ?? 0)):\($0["hash"]?.stringValue ?? "")" })
        let ok = try await SignetBinary.run(["audit", "verify", "--expect-head", head.description, "--data", data])
        #expect(ok.status == 0 && ok.stdout.hasSuffix("head \(head)\n"), "\(ok)")

        let cut = try await Subprocess.run("/usr/bin/sqlite3", [data + "/signet.db", Self.truncation(to: head.sequence - 1)])
        #expect(cut.status == 0, "\(cut.stderr)")
        let caught = try await SignetBinary.run(["audit", "verify", "--expect-head", head.description, "--data", data])
        #expect(caught.status == 1, "\(caught)")
        #expect(caught.stdout.contains("audit chain BROKEN at sequence \(head.sequence): missing: the chain ends before the expected sequence \(head.sequence)"),
                "\(caught.stdout)")
    }

    /// `signet purge` records the checkpoint it leaves in an `audit_purged` event, and verify
    /// passes; with `audit.retention` longer than the checkpoint's age, verify says events went
    /// before their time.
    @Test func aPurgeIsRecordedAndACheckpointInsideTheRetentionIsReported() async throws {
        let folder = try TemporaryDirectory(prefix: "audit-retention")
        defer { folder.remove() }
        let data = folder.appending("data")
        let short = try folder.write(#"{"audit": {"retention": 1}}"#, to: "short.json")
        let long = try folder.write(#"{"audit": {"retention": 86400}}"#, to: "long.json")
        for email in ["ann@example.com", "bob@example.com"] {
            #expect(try await SignetBinary.run(["users", "add", email, "--no-password", "--data", data]).succeeded)
        }
        try await Task.sleep(for: .milliseconds(2_100))
        let purged = try await SignetBinary.run(["purge", "--config", short, "--data", data])
        #expect(purged.status == 0 && purged.stdout.contains("purged 3 audit event(s)"), "\(purged)")
        let listed = try await SignetBinary.run(["audit", "list", "--data", data])
        let events = try listed.stdout.split(separator: "\n").map { try #require(try JSONValue.parse(String($0)).objectValue) }
        #expect(events.map { $0["event"]?.stringValue } == [AuditChain.purgedEvent], "\(listed.stdout)")
        let detail = try #require(events.first?["detail"]?.objectValue)
        #expect(detail["checkpoint_sequence"]?.doubleValue == 3 && detail["events_deleted"]?.doubleValue == 3)
        let ok = try await SignetBinary.run(["audit", "verify", "--config", short, "--data", data])
        #expect(ok.status == 0 && ok.stdout.hasPrefix("audit chain OK: 1 event(s) checked, head 4:"), "\(ok)")
        let early = try await SignetBinary.run(["audit", "verify", "--config", long, "--data", data])
        #expect(early.status == 1, "\(early)")
        #expect(early.stdout.contains("audit chain BROKEN at sequence 3: the last purged event is younger than audit.retention (86400 s) allows"),
                "\(early.stdout)")
    }

    enum Tampering {
        case sql(String)
        case rewrite(from: Int64)
        case otherKey
    }

    /// SQL that deletes every event after `sequence` and moves the head back to it.
    static func truncation(to sequence: Int64) -> String {
        """
        DELETE FROM audit_events WHERE sequence > \(sequence);
        UPDATE audit_chain SET head_sequence = \(sequence), head_hash = (SELECT hash FROM audit_events WHERE sequence = \(sequence));
        """
    }

    /// A copy of the data folder `data` at `copy`: the database by `signet backup`, and the master key.
    static func copy(_ data: String, to copy: String) async throws -> String {
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        let backup = try await SignetBinary.run(["backup", "--to", copy + "/signet.db", "--data", data])
        #expect(backup.succeeded, "\(backup)")
        try FileManager.default.copyItem(atPath: data + "/master.key", toPath: copy + "/master.key")
        return copy
    }

    /// What someone who can write the database but has no master key can do: edit the event at
    /// `first` and chain it and every later one again by the unkeyed rule, the head with them.
    static func rewriteWithoutTheKey(_ path: String, from first: Int64) throws {
        let store = try SQLiteStorage(path: path, migrate: false)
        let events = try store.audit.listAudit(AuditQuery(limit: 10_000)).reversed()
        try store.stores.transaction { db in
            var previous = events.first { $0.sequence == first - 1 }?.hash ?? AuditChain.genesis
            for var event in events where event.sequence >= first {
                if event.sequence == first { event.reason = "nothing to see" }
                event.previousHash = previous
                event.hash = AuditChain.hash(of: event)
                try db.run("UPDATE audit_events SET reason = $1, prev_hash = $2, hash = $3 WHERE sequence = $4",
                           [event.reason, event.previousHash, event.hash, event.sequence])
                previous = event.hash
            }
            try db.run("UPDATE audit_chain SET head_hash = $1 WHERE id = 1", [previous])
        }
    }
}
