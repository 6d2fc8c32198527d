import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
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

    /// `signet audit verify` says OK, then finds an edited row, a deleted middle row and a
    /// reordered pair in copies of the database edited with the sqlite3 command; `audit list`
    /// prints the CLI's admin changes as JSON lines with the actor `cli` and no secret.
    @Test func verifyFindsEditedDeletedAndReorderedRows() async throws {
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
        let listed = try await SignetBinary.run(["audit", "list", "--data", data])
        #expect(listed.status == 0, "\(listed)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        let objects = try lines.map { try #require(try JSONValue.parse($0).objectValue) }
        let names = objects.compactMap { $0["event"]?.stringValue }
        #expect(names.starts(with: ["client_created", "client_secret_rotated", "user_created", "user_disabled", "user_enabled"]), "\(names)")
        #expect(names.contains("signing_key_rotated"))
        #expect(objects.allSatisfy { $0["actor"]?.stringValue == "cli" })
        #expect(objects.map { $0["sequence"]?.doubleValue ?? 0 } == (1...objects.count).map(Double.init))
        let created = objects[0]["detail"]?.objectValue?["after"]?.objectValue
        #expect(created?["secret"]?.stringValue == "[redacted]" && created?["id"]?.stringValue == "svc")
        for hidden in [secret, newSecret, "carol@example.com"] { #expect(!listed.stdout.contains(hidden)) }
        let filtered = try await SignetBinary.run(["audit", "list", "--event", "user_disabled", "--subject", userID, "--data", data])
        #expect(filtered.stdout.split(separator: "\n").count == 1, "\(filtered)")

        // Each tampering on its own copy (taken with signet backup).
        let tamperings: [(String, String, String)] = [
            ("edited", "UPDATE audit_events SET reason = 'nothing to see' WHERE sequence = 3;",
             "audit chain BROKEN at sequence 3: its content does not match its hash"),
            ("deleted", "DELETE FROM audit_events WHERE sequence = 3;", "audit chain BROKEN at sequence 3: missing"),
            ("reordered", """
             UPDATE audit_events SET sequence = -1 WHERE sequence = 3;
             UPDATE audit_events SET sequence = 3 WHERE sequence = 4;
             UPDATE audit_events SET sequence = 4 WHERE sequence = -1;
             """, "audit chain BROKEN at sequence 3: does not chain from the event before it"),
            ("truncated", "DELETE FROM audit_events WHERE sequence = (SELECT MAX(sequence) FROM audit_events);",
             "missing: the chain's recorded head is"),
        ]
        for (name, sql, expected) in tamperings {
            let copy = folder.appending(name)
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            let backup = try await SignetBinary.run(["backup", "--to", copy + "/signet.db", "--data", data])
            #expect(backup.succeeded, "\(backup)")
            let edit = try await Subprocess.run("/usr/bin/sqlite3", [copy + "/signet.db", sql])
            #expect(edit.status == 0, "\(edit.stderr)")
            let checked = try await SignetBinary.run(["audit", "verify", "--data", copy])
            #expect(checked.status == 1, "\(name): \(checked)")
            #expect(checked.stdout.contains(expected), "\(name): \(checked.stdout)")
        }
        // The original is untouched.
        #expect(try await SignetBinary.run(["audit", "verify", "--data", data]).status == 0)
    }
}
