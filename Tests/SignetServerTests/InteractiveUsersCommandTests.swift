import Foundation
import SignetCore
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// `signet users …` run as the real binary against a running test server's data folder.
@Suite(.endToEndLimit) struct InteractiveUsersCommandTests {
    func users(_ env: Interactive, _ arguments: [String], stdin: String? = nil) async throws -> SubprocessResult {
        try await SignetBinary.run(["users"] + arguments + ["--data", env.server.dataDirectory], stdin: stdin.map { Array($0.utf8) })
    }

    @Test func roleGivesChangesAndTakesTheConsoleRoleAndRefusesOthers() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let roles = env.server.environment.storage.operatorRoles
        let admin = try await users(env, ["role", Interactive.email, "admin"])
        #expect(admin.succeeded, "\(admin)")
        #expect(admin.stdout.contains("console role admin"))
        #expect(try roles.operatorRole(userID: env.user.id)?.role == "admin")
        #expect(try await users(env, ["role", env.user.id, "viewer"]).succeeded)
        #expect(try roles.operatorRole(userID: env.user.id)?.role == "viewer")
        let bad = try await users(env, ["role", Interactive.email, "root"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("role: must be admin, viewer or none"))
        #expect(try roles.operatorRole(userID: env.user.id)?.role == "viewer")
        #expect(try await users(env, ["role", "nobody@example.com", "admin"]).status == 64)
        #expect(try await users(env, ["role", Interactive.email]).status == 64)
        let none = try await users(env, ["role", Interactive.email, "none"])
        #expect(none.succeeded && none.stdout.contains("no console role"))
        #expect(try roles.operatorRole(userID: env.user.id) == nil)
        let changes = try env.server.environment.storage.audit.listAudit(AuditQuery(event: "operator_role_changed", limit: 10))
        #expect(changes.count == 3)
        #expect(changes.first?.actor == "cli")
    }

    @Test func addWithPasswordStdinPrintsTheSubjectAndTheUserCanSignIn() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let secret = "a long enough password"
        let added = try await users(env, ["add", "  Bob@Example.com ", "--name", "Bob B", "--password-stdin"], stdin: secret + "\n")
        #expect(added.succeeded, "\(added)")
        let sub = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(sub.count == 22)
        #expect(!added.stdout.contains(secret) && !added.stderr.contains(secret))
        let stored = try #require(try env.server.environment.storage.users.user(id: sub))
        #expect(stored.email == "bob@example.com")
        #expect(stored.name == "Bob B")
        #expect(stored.passwordHash?.hasPrefix("$argon2id$") == true)

        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        #expect(try await env.submitCredentials(browser, email: "bob@example.com", password: secret).requireRedirect()["code"] != nil)

        let list = try await users(env, ["list"])
        #expect(list.succeeded && list.stdout.contains("bob@example.com") && list.stdout.contains(sub))
        let show = try await users(env, ["show", "bob@example.com"])
        #expect(show.succeeded && show.stdout.contains(sub) && !show.stdout.contains("$argon2id"))

        let duplicate = try await users(env, ["add", "bob@example.com", "--password-stdin"], stdin: secret)
        #expect(duplicate.status == 64)
        let badEmail = try await users(env, ["add", "not-an-email", "--password-stdin"], stdin: secret)
        #expect(badEmail.status == 64)
        let short = try await users(env, ["add", "carol@example.com", "--password-stdin"], stdin: "short")
        #expect(short.status == 64)
        let common = try await users(env, ["add", "carol@example.com", "--password-stdin"], stdin: "Password123\n")
        #expect(common.status == 64)
        #expect(common.stderr.contains("most commonly used"))
        let noTTY = try await users(env, ["add", "carol@example.com"], stdin: secret)
        #expect(noTTY.status == 64)
        #expect(noTTY.stderr.contains("--password-stdin"))
        #expect(try env.server.environment.storage.users.user(email: "carol@example.com") == nil)
    }

    @Test func setPasswordFromStdinEndsSessionsAndRevokesRefreshTokens() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let redirect = try await env.signIn(browser, pkce: pkce)
        let tokens = try await env.redeem(code: try #require(redirect["code"]), pkce: pkce)
        let refresh = try #require(try tokens.json().objectValue?["refresh_token"]?.stringValue)
        // A code the session got just before the change, not redeemed yet.
        let pending = PKCEPair.generate()
        let silent = try await browser.open(env.authorizeURL(pkce: pending, extra: [("prompt", "none")])).requireRedirect()
        let unredeemed = try #require(silent["code"])

        let changed = try await users(env, ["set-password", Interactive.email, "--password-stdin"], stdin: "the new password\n")
        #expect(changed.succeeded, "\(changed)")
        #expect(changed.stdout.contains("ended 1 session(s), revoked 1 grant(s)"))
        #expect(!changed.stdout.contains("the new password") && !changed.stderr.contains("the new password"))

        // The browser's session is over: the next request goes to the sign-in page.
        let page = try await browser.open(env.authorizeURL(pkce: .generate()))
        #expect(page.redirect == nil)
        #expect(page.url.path == Routes.signIn)
        // The refresh family is revoked, with the reason recorded.
        let refused = try await HTTPTestClient().post(env.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
        #expect(refused.status == 400)
        #expect(try refused.json().objectValue?["error"]?.stringValue == "invalid_grant")
        let grant = try #require(try env.server.environment.storage.refreshTokens.grant(id: try grantID(of: tokens)))
        #expect(grant.revokeReason == "password_changed")
        // The code issued before the change starts no new family.
        let late = try await env.redeem(code: unredeemed, pkce: pending)
        #expect(late.status == 400)
        #expect(try late.json().objectValue?["error"]?.stringValue == "invalid_grant")
        #expect(try await env.submitCredentials(browser).redirect == nil, "the old password no longer works")
        #expect(try await env.submitCredentials(browser, password: "the new password").requireRedirect()["code"] != nil)
    }

    /// The grant id an access token carries.
    func grantID(of tokens: TestResponse) throws -> String {
        let access = try #require(try tokens.json().objectValue?["access_token"]?.stringValue)
        return try #require(try NativeSignInFixture.claims(access)["gid"]?.stringValue, "no gid claim")
    }

    @Test func disableEndsSessionsAndRevokesRefreshTokens() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let redirect = try await env.signIn(browser, pkce: pkce)
        let tokens = try await env.redeem(code: try #require(redirect["code"]), pkce: pkce)
        let refresh = try #require(try tokens.json().objectValue?["refresh_token"]?.stringValue)

        let disabled = try await users(env, ["disable", Interactive.email])
        #expect(disabled.succeeded, "\(disabled)")
        #expect(disabled.stdout.contains("ended 1 session(s), revoked 1 grant(s)"))

        let page = try await browser.open(env.authorizeURL(pkce: .generate()))
        #expect(page.redirect == nil)
        #expect(page.url.path == Routes.signIn)
        let refused = try await HTTPTestClient().post(env.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
        #expect(refused.status == 400)
        #expect(try refused.json().objectValue?["error"]?.stringValue == "invalid_grant")
        #expect(try await env.submitCredentials(browser).redirect == nil, "a disabled user cannot sign in")

        let enabled = try await users(env, ["enable", env.user.id])
        #expect(enabled.succeeded)
        #expect(try await env.submitCredentials(browser).requireRedirect()["code"] != nil)
        let unknown = try await users(env, ["disable", "nobody@example.com"])
        #expect(unknown.status == 64)
    }
}
