import Foundation
import SignetCore
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The account page (`/account`) end to end: the sign-in that returns to it, and every action
/// and refusal of its forms.
@Suite(.endToEndLimit) struct AccountPageTests {
    /// A fresh browser signed in through `/account` (the built-in account client's flow).
    func signedIn(_ env: Interactive, password: String = Interactive.password) async throws -> FormBrowser {
        let browser = FormBrowser()
        let start = try await browser.open(env.server.url(Routes.account))
        #expect(start.status == 200)
        #expect(start.url.path == Routes.signIn)
        let back = try await env.submitCredentials(browser, password: password)
        #expect(back.status == 200)
        #expect(back.url.path == Routes.account)
        return browser
    }

    func user(_ env: Interactive) throws -> UserRecord? { try env.server.environment.storage.users.user(id: env.user.id) }

    @Test func withoutASessionTheAccountPageSignsInAndReturns() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = try await signedIn(env)
        let page = try #require(browser.page)
        expectHardened(page)
        #expect(page.header("Content-Security-Policy")?.contains("form-action 'self'") == true)
        #expect(page.text.contains(Interactive.email))
        #expect(!page.text.lowercased().contains("<script"))
        for action in [Routes.accountName, Routes.accountPassword, Routes.accountDelete] {
            let form = try #require(browser.forms.first { $0.action.path == action })
            #expect(form.value("csrf")?.isEmpty == false)
        }
        #expect(page.text.contains("id=\"this-session\""))
    }

    @Test func theNameChangesAndIsEscaped() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = try await signedIn(env)
        let saved = try await browser.submit(formWithAction: Routes.accountName, fields: ["name": "  Ada <Lovelace>  "])
        #expect(saved.status == 200)
        #expect(saved.url.query == "notice=name-saved")
        #expect(try user(env)?.name == "Ada <Lovelace>")
        #expect(saved.response.text.contains("value=\"Ada &lt;Lovelace&gt;\""))
        let tooLong = try await browser.submit(formWithAction: Routes.accountName, fields: ["name": String(repeating: "x", count: 201)])
        #expect(tooLong.url.query == "notice=name-too-long")
        #expect(try user(env)?.name == "Ada <Lovelace>")
    }

    @Test func formsWithoutOrWithAWrongCSRFFieldOrWithoutASessionAreRefused() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = try await signedIn(env)
        let client = HTTPTestClient(cookies: browser.cookies)
        let missing = try await client.post(env.server.url(Routes.accountName), form: [("name", "Mallory")])
        #expect(missing.status == 403)
        expectHardened(missing)
        let wrong = try await client.post(env.server.url(Routes.accountName), form: [("name", "Mallory"), ("csrf", "AAAA")])
        #expect(wrong.status == 403)
        // A field made for another session does not work for this one.
        let other = try await signedIn(env)
        let otherField = try #require(other.forms.first { $0.action.path == Routes.accountName }?.value("csrf"))
        let crossed = try await client.post(env.server.url(Routes.accountName), form: [("name", "Mallory"), ("csrf", otherField)])
        #expect(crossed.status == 403)
        // No session at all: 401, whatever the form holds.
        let field = try #require(browser.forms.first { $0.action.path == Routes.accountName }?.value("csrf"))
        let anonymous = try await HTTPTestClient().post(env.server.url(Routes.accountName), form: [("name", "Mallory"), ("csrf", field)])
        #expect(anonymous.status == 401)
        for path in [Routes.accountPassword, Routes.accountUnlink, Routes.accountSessionEnd, Routes.accountSessionsEndOthers,
                     Routes.accountAppRevoke, Routes.accountDelete] {
            #expect(try await client.post(env.server.url(path), form: [("x", "1")]).status == 403, "\(path)")
            #expect(try await HTTPTestClient().post(env.server.url(path), form: [("x", "1")]).status == 401, "\(path)")
        }
        #expect(try user(env)?.name == "Alice")
        #expect(try user(env) != nil)
    }

    @Test func thePasswordChangeNeedsTheCurrentPasswordAndEndsTheOtherSessions() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = try await signedIn(env)
        let other = try await signedIn(env)
        let before = try #require(try user(env)?.passwordHash)
        let wrong = try await browser.submit(formWithAction: Routes.accountPassword,
                                             fields: ["current_password": "not it", "new_password": "a new long passphrase"])
        #expect(wrong.url.query == "notice=wrong-password")
        let common = try await browser.submit(formWithAction: Routes.accountPassword,
                                              fields: ["current_password": Interactive.password, "new_password": "password123"])
        #expect(common.url.query == "notice=invalid-password")
        let short = try await browser.submit(formWithAction: Routes.accountPassword,
                                             fields: ["current_password": Interactive.password, "new_password": "short"])
        #expect(short.url.query == "notice=invalid-password")
        #expect(try user(env)?.passwordHash == before)
        let changed = try await browser.submit(formWithAction: Routes.accountPassword,
                                               fields: ["current_password": Interactive.password, "new_password": "a new long passphrase"])
        #expect(changed.status == 200)
        #expect(changed.url.path == Routes.account)
        #expect(changed.url.query == "notice=password-changed")
        #expect(try user(env)?.passwordHash != before)
        // The other browser's session ended: the page sends it to sign in.
        let otherPage = try await other.open(env.server.url(Routes.account))
        #expect(otherPage.url.path == Routes.signIn)
        // The old password no longer signs in; the new one does.
        let users = env.server.environment.makeUserService()
        #expect(try users.authenticate(email: Interactive.email, password: Interactive.password) == nil)
        #expect(try users.authenticate(email: Interactive.email, password: "a new long passphrase")?.id == env.user.id)
    }

    @Test func sessionsAreListedAndEndedOneOrAllOthers() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = try await signedIn(env)
        let second = try await signedIn(env)
        let third = try await signedIn(env)
        let page = try await browser.open(env.server.url(Routes.account))
        let endForms = page.forms.filter { $0.action.path == Routes.accountSessionEnd }
        #expect(endForms.count == 2)   // the two others; this one is marked, not offered
        // A session id of someone else's (or made up) is not found.
        let bogus = try await browser.submit(formWithAction: Routes.accountSessionEnd, fields: ["session": "AAAA"])
        #expect(bogus.url.query == "notice=not-found")
        let ended = try await browser.submit(page.forms.filter { $0.action.path == Routes.accountSessionEnd }[0])
        #expect(ended.url.query == "notice=session-ended")
        let stillIn = try await [second, third].asyncFilter { try await $0.open(env.server.url(Routes.account)).url.path == Routes.account }
        #expect(stillIn.count == 1)
        let all = try await browser.submit(formWithAction: Routes.accountSessionsEndOthers)
        #expect(all.url.query == "notice=other-sessions-ended")
        for other in [second, third] {
            #expect(try await other.open(env.server.url(Routes.account)).url.path == Routes.signIn)
        }
        #expect(try await browser.open(env.server.url(Routes.account)).url.path == Routes.account)
        let now = env.server.clock.now
        #expect(try env.server.environment.storage.sessions.activeSessions(userID: env.user.id, now: now).count == 1)
    }

    @Test func anAppsRefreshGrantIsListedAndRevoked() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let pkce = PKCEPair.generate()
        let redirect = try await env.signIn(FormBrowser(), pkce: pkce)
        let tokens = try await env.redeem(code: try #require(redirect["code"]), pkce: pkce).json()
        let refresh = try #require(tokens["refresh_token"]?.stringValue)
        let access = try #require(tokens["access_token"]?.stringValue)
        let browser = try await signedIn(env)
        let page = try #require(browser.page)
        #expect(page.text.contains("Native &lt;b&gt;App&lt;/b&gt;"))
        let bogus = try await browser.submit(formWithAction: Routes.accountAppRevoke, fields: ["grant": "nope"])
        #expect(bogus.url.query == "notice=not-found")
        let revoked = try await browser.submit(formWithAction: Routes.accountAppRevoke)
        #expect(revoked.url.query == "notice=revoked")
        #expect(!revoked.response.text.contains("Native &lt;b&gt;App"))
        let refreshed = try await HTTPTestClient().post(env.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
        #expect(refreshed.status == 400)
        #expect(try refreshed.json()["error"]?.stringValue == "invalid_grant")
        let userinfo = try await HTTPTestClient().get(env.server.url(Routes.userinfo), headers: ["Authorization": "Bearer \(access)"])
        #expect(userinfo.status == 401)
        #expect(userinfo.header("WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)
    }

    @Test func theLastSignInMethodCannotBeUnlinked() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let storage = env.server.environment.storage
        let now = env.server.clock.now
        // A passwordless account with one provider link, and Alice (password) with two links.
        let (fed, browser, _) = try await passwordlessWithOneLink(env)
        let refused = try await browser.submit(formWithAction: Routes.accountUnlink)
        #expect(refused.url.query == "notice=cannot-unlink-last")
        #expect(try storage.users.federatedIdentities(userID: fed.id).count == 1)
        // With a second provider the first may go; the last one again may not.
        try storage.users.insertFederatedIdentity(FederatedIdentityRecord(connectionID: "apple", issuer: "https://a.example",
                                                                          subject: "a-1", userID: fed.id, createdAt: now))
        _ = try await browser.open(env.server.url(Routes.account))
        let unlinked = try await browser.submit(formWithAction: Routes.accountUnlink, fields: ["connection": "google"])
        #expect(unlinked.url.query == "notice=unlinked")
        #expect(try storage.users.federatedIdentities(userID: fed.id).map(\.connectionID) == ["apple"])
        let last = try await browser.submit(formWithAction: Routes.accountUnlink, fields: ["connection": "apple"])
        #expect(last.url.query == "notice=cannot-unlink-last")
        // A password counts as a way to sign in.
        try storage.users.insertFederatedIdentity(FederatedIdentityRecord(connectionID: "google", issuer: "https://g.example",
                                                                          subject: "g-2", userID: env.user.id, createdAt: now))
        let alice = try await signedIn(env)
        let alone = try await alice.submit(formWithAction: Routes.accountUnlink, fields: ["connection": "google"])
        #expect(alone.url.query == "notice=unlinked")
        #expect(try storage.users.federatedIdentities(userID: env.user.id).isEmpty)
    }

    @Test func aPasskeyCountsAsAnotherWayToSignIn() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let storage = env.server.environment.storage
        let now = env.server.clock.now
        let (fed, browser, page) = try await passwordlessWithOneLink(env)
        // The security section links to the passkeys and the authenticator app pages.
        #expect(page.response.text.contains("<section id=\"security\">\n<h2>Security</h2>"))
        #expect(page.response.text.contains("<a href=\"\(Routes.accountPasskeys)\">Passkeys</a>"))
        #expect(page.response.text.contains("<a href=\"\(Routes.accountTOTP)\">Two-step verification</a>"))
        // Without a passkey the only link stays; with one (of this user) it may go.
        let refused = try await browser.submit(formWithAction: Routes.accountUnlink)
        #expect(refused.url.query == "notice=cannot-unlink-last")
        #expect(try storage.users.federatedIdentities(userID: fed.id).count == 1)
        try storage.passkeys.insertPasskey(PasskeyRecord(id: [1, 2, 3], userID: env.user.id, publicKey: [4], signCount: 0, backupEligible: true,
                                                         backupState: true, transports: [], name: "Alice's", createdAt: now))
        _ = try await browser.open(env.server.url(Routes.account))
        let stillRefused = try await browser.submit(formWithAction: Routes.accountUnlink)
        #expect(stillRefused.url.query == "notice=cannot-unlink-last")
        try storage.passkeys.insertPasskey(PasskeyRecord(id: [5, 6, 7], userID: fed.id, publicKey: [8], signCount: 0, backupEligible: true,
                                                         backupState: true, transports: [], name: "Phone", createdAt: now))
        _ = try await browser.open(env.server.url(Routes.account))
        let unlinked = try await browser.submit(formWithAction: Routes.accountUnlink)
        #expect(unlinked.url.query == "notice=unlinked")
        #expect(try storage.users.federatedIdentities(userID: fed.id).isEmpty)
    }

    @Test func theSignUpAndAccountPagesAreInGermanForAcceptLanguageDe() async throws {
        let env = try Interactive { $0.accounts.signUp = .open }
        defer { env.stop() }
        let german = "de-DE, de;q=0.9, en;q=0.5"
        let signUp = try await HTTPTestClient().get(env.server.url(Routes.signUp), headers: ["Accept-Language": german])
        #expect(signUp.status == 200)
        #expect(signUp.header("Vary")?.contains("Accept-Language") == true)
        #expect(signUp.text.contains("<title>Konto erstellen"))
        #expect(signUp.text.contains("<label for=\"name\">Name (optional)</label>"))
        #expect(signUp.text.contains("Mindestens 8 Zeichen. Alle Zeichen sind erlaubt, auch Leerzeichen"))
        #expect(signUp.text.contains(">Passwort anzeigen</button>"))
        #expect(!signUp.text.contains("Create your account"))
        let english = try await HTTPTestClient().get(env.server.url(Routes.signUp))
        #expect(english.text.contains("<title>Create your account"))

        let browser = try await signedIn(env)
        let page = try await browser.open(env.server.url(Routes.account), headers: ["Accept-Language": german])
        #expect(page.status == 200 && page.url.path == Routes.account)
        let text = page.response.text
        #expect(text.contains("<title>Ihr Konto"))
        #expect(text.contains("<p>Angemeldet als <strong>\(Interactive.email)</strong></p>"))
        #expect(text.contains("<h2>Aktive Sitzungen</h2>"))
        #expect(text.contains("<h2>Sicherheit</h2>"))
        #expect(text.contains(">Mein Konto löschen</button>"))
        #expect(!text.contains("Your account"))
        let notice = try await browser.open(env.server.url(Routes.account, query: [("notice", "name-too-long")]), headers: ["Accept-Language": german])
        #expect(notice.response.text.contains("Der Name ist zu lang (höchstens 200 Zeichen, keine Steuerzeichen)."))
    }

    @Test func deletingFromThePageNeedsThePasswordAndEndsEverything() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let pkce = PKCEPair.generate()
        let redirect = try await env.signIn(FormBrowser(), pkce: pkce)
        let code = try #require(redirect["code"])
        let refresh = try #require(try await env.redeem(code: code, pkce: pkce).json()["refresh_token"]?.stringValue)
        let other = try await signedIn(env)
        let browser = try await signedIn(env)
        let wrong = try await browser.submit(formWithAction: Routes.accountDelete, fields: ["password": "not it"])
        #expect(wrong.url.query == "notice=wrong-password")
        #expect(try user(env) != nil)
        let deleted = try await browser.submit(formWithAction: Routes.accountDelete, fields: ["password": Interactive.password])
        #expect(deleted.status == 200)
        expectHardened(deleted.response)
        #expect(deleted.response.setCookies.contains { $0.hasPrefix("signet_session=;") && $0.contains("Max-Age=0") })
        #expect(try user(env) == nil)
        let now = env.server.clock.now
        #expect(try env.server.environment.storage.sessions.activeSessions(userID: env.user.id, now: now).isEmpty)
        #expect(try await other.open(env.server.url(Routes.account)).url.path == Routes.signIn)
        let refreshed = try await HTTPTestClient().post(env.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
        #expect(refreshed.status == 400)
        #expect(try refreshed.json()["error"]?.stringValue == "invalid_grant")
        let audit = try env.server.environment.storage.audit.recentAudit(limit: 50)
        let event = try #require(audit.first { $0.event == "account_deleted" })
        #expect(event.subjectID == env.user.id)
        #expect(!event.detail.contains(Interactive.email))
    }

    @Test func withoutAPasswordDeletingNeedsAFreshSignIn() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let users = env.server.environment.makeUserService()
        let fed = try users.create(email: "fed@example.com", password: nil)
        let browser = FormBrowser()
        try await signInDirectly(env, browser, user: fed)
        _ = try await browser.open(env.server.url(Routes.account))
        #expect(browser.forms.contains { $0.action.path == Routes.accountDelete })
        let field = try #require(browser.forms.first { $0.action.path == Routes.accountDelete }?.value("csrf"))
        env.server.clock.advance(by: TimeInterval(AccountRoutesTestValues.freshSeconds + 1))
        let page = try await browser.open(env.server.url(Routes.account))
        #expect(!browser.forms.contains { $0.action.path == Routes.accountDelete })
        #expect(page.response.text.contains("href=\"\(Routes.accountReauth)\""))
        // The old form, posted anyway, is refused.
        let stale = try await HTTPTestClient(cookies: browser.cookies).post(env.server.url(Routes.accountDelete), form: [("csrf", field)])
        #expect(stale.status == 303)
        #expect(stale.location == Routes.account + "?notice=delete-needs-fresh-sign-in")
        #expect(try users.find(fed.id) != nil)
        // /account/reauth asks for a fresh sign-in (prompt=login) even with a session.
        let reauth = try await HTTPTestClient(cookies: browser.cookies).get(env.server.url(Routes.accountReauth))
        #expect(reauth.status == 303)
        #expect(reauth.location?.contains("prompt=login") == true)
        #expect(reauth.location?.contains("client_id=\(AccountClient.id)") == true)
    }

    /// Starts a session for `user` the way a provider sign-in would, and gives the browser its cookie.
    /// A passwordless account linked to one provider ("google"), signed in on its account page.
    func passwordlessWithOneLink(_ env: Interactive) async throws -> (UserRecord, FormBrowser, BrowserOutcome) {
        let fed = try env.server.environment.makeUserService().create(email: "fed@example.com", password: nil)
        try env.server.environment.storage.users.insertFederatedIdentity(FederatedIdentityRecord(
            connectionID: "google", issuer: "https://g.example", subject: "g-1", userID: fed.id, createdAt: env.server.clock.now))
        let browser = FormBrowser()
        try await signInDirectly(env, browser, user: fed)
        let page = try await browser.open(env.server.url(Routes.account))
        #expect(page.url.path == Routes.account)
        return (fed, browser, page)
    }

    func signInDirectly(_ env: Interactive, _ browser: FormBrowser, user: UserRecord) async throws {
        let server = env.server.application.authorizationServer
        let gate = SignInGate(server: server, realms: NoHomeRealms(), requireVerifiedEmail: false)
        guard case .proceed(let admission) = try gate.decide(SignInEvent(user: user, amr: ["fed"], way: .federation, connectionID: "google"),
                                                             for: .noClient) else {
            Issue.record("the gate did not admit the provider sign-in")
            return
        }
        let started = try SessionManager(server: server).start(admission)
        let host = try #require(env.server.baseURL.host)
        browser.cookies.set(TestCookie(name: "signet_session", value: started.token, domain: host))
    }
}

/// Values of the account page the tests depend on.
enum AccountRoutesTestValues {
    /// `AccountRoutes.freshSignInMinutes` in seconds (5 minutes).
    static let freshSeconds = 5 * 60
}

extension Array where Element: Sendable {
    func asyncFilter(_ keep: (Element) async throws -> Bool) async throws -> [Element] {
        var kept: [Element] = []
        for element in self where try await keep(element) { kept.append(element) }
        return kept
    }
}
