import Foundation
import SignetClientCore
import SignetCore
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Email codes and magic links as a sign-in method (`accounts.email_sign_in`).
@Suite(.endToEndLimit) struct EmailSignInEndToEndTests {
    /// Starts an email sign-in for `email` in `browser`; returns the code page.
    func ask(_ accounts: Accounts, _ browser: FormBrowser, pkce: PKCEPair, email: String = Interactive.email) async throws -> BrowserOutcome {
        let handle = try await accounts.signInPage(browser, pkce: pkce)
        #expect(browser.page?.text.contains("href=\"/email/signin?request=\(handle)\"") == true)
        _ = try await browser.open(accounts.server.url(Routes.emailSignIn, query: [("request", handle)]))
        return try await browser.submit(formWithAction: Routes.emailSignIn, fields: ["email": email])
    }

    @Test func theCodeSignsInWithAmrOtp() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let page = try await ask(accounts, browser, pkce: pkce)
        #expect(page.status == 200 && page.url.path == Routes.emailCode)
        let mail = try await accounts.mail(1)
        #expect(mail.subject == "Your Example ID sign-in code")
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": try Accounts.code(in: mail)])
        let tokens = try await accounts.app.redeem(code: try #require(try done.requireRedirect().query()["code"]), pkce: pkce)
        let claims = try Accounts.idTokenClaims(tokens)
        #expect(claims["sub"]?.stringValue == accounts.app.user.id)
        #expect(claims["amr"] == .array([.string("otp")]))
    }

    /// Five wrong codes use up the challenge (`EmailChallenges.maxAttempts`): each of the first
    /// four says how many attempts are left, the fifth says the code no longer works, and then
    /// the right code and the mailed link are refused too, with no session and no code for the app.
    @Test func afterFiveWrongCodesTheRightCodeAndTheLinkAreRefused() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let page = try await ask(accounts, browser, pkce: PKCEPair.generate())
        #expect(page.status == 200 && page.url.path == Routes.emailCode)
        let form = try #require(browser.forms.first { $0.action.path == Routes.emailCode })
        let mail = try await accounts.mail(1)
        let code = try Accounts.code(in: mail)
        let wrong = String(code.map { $0 == "1" ? "2" : "1" })
        let http = HTTPTestClient(cookies: browser.cookies)
        func submit(_ value: String) async throws -> TestResponse {
            try await http.post(accounts.server.url(Routes.emailCode), form: try form.submission(overrides: ["code": value]))
        }
        for left in (1...4).reversed() {
            let refused = try await submit(wrong)
            #expect(refused.status == 400, "\(refused)")
            #expect(refused.text.contains("That code is not right. Attempts left: \(left)"), "\(refused.text)")
        }
        let last = try await submit(wrong)
        #expect(last.status == 410 && last.text.contains("This code or link no longer works"), "\(last)")
        let right = try await submit(code)
        #expect(right.status == 410 && right.text.contains("This code or link no longer works"), "\(right)")
        #expect(right.header("Location") == nil && right.setCookies.allSatisfy { !$0.hasPrefix("signet_session=") })
        #expect(Interactive.sessionCookie(browser) == nil)
        #expect(try await browser.open(try Accounts.link("Sign in", in: mail)).status == 410)
        let wrongs = try accounts.server.environment.storage.audit.listAudit(AuditQuery(event: "email_code_wrong", limit: 10))
        #expect(wrongs.count == 5 && wrongs.allSatisfy { $0.subjectID == accounts.app.user.id })
        #expect(try accounts.server.environment.storage.audit.listAudit(AuditQuery(event: "sign_in", limit: 10)).isEmpty)
    }

    @Test func theLinkInAnotherBrowserSignsNothingInAndTheSameBrowserCanStillUseIt() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        _ = try await ask(accounts, browser, pkce: pkce)
        let link = try Accounts.link("Sign in", in: try await accounts.mail(1))
        // Another browser: told to use the code where it started; no form, no session.
        let other = FormBrowser()
        let elsewhere = try await other.open(link)
        #expect(elsewhere.status == 200 && elsewhere.response.text.contains("Enter the code on the device where you started"))
        #expect(elsewhere.forms.isEmpty && Interactive.sessionCookie(other) == nil)
        // Even a crafted POST from the other browser is refused.
        let token = try #require(URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
        let forged = try await HTTPTestClient(cookies: other.cookies).post(accounts.server.url(Routes.emailLink), form: [("token", token), ("csrf", "x")])
        #expect(forged.status == 403 && forged.setCookies.allSatisfy { !$0.hasPrefix("signet_session=") })
        // The browser that asked signs in with the link.
        let here = try await browser.open(link)
        #expect(here.status == 200 && here.response.text.contains("Sign in as <strong>\(Interactive.email)</strong>"))
        let done = try await browser.submit(formWithAction: Routes.emailLink)
        let tokens = try await accounts.app.redeem(code: try #require(try done.requireRedirect().query()["code"]), pkce: pkce)
        #expect(try Accounts.idTokenClaims(tokens)["amr"] == .array([.string("otp")]))
        // Used: the link and the code are dead.
        #expect(try await browser.open(link).status == 410)
    }

    @Test func anUnknownAddressGetsTheSamePageAndANoAccountMail() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let known = try await ask(accounts, FormBrowser(), pkce: PKCEPair.generate())
        let unknown = try await ask(accounts, FormBrowser(), pkce: PKCEPair.generate(), email: "nobody@example.com")
        #expect(known.status == unknown.status && known.history.map(\.path) == unknown.history.map(\.path))
        expectSameHeaders(known.response, unknown.response)
        let mails = try await accounts.sink.waitForMessages(2).map { try $0.parsed() }
        #expect(mails.first { $0.to.contains("nobody@example.com") }?.subject == "About your Example ID sign-in")
    }

    @Test func emailSignInOffHasNoLinkAndNoPage() async throws {
        let accounts = try await Accounts.start { $0.accounts.emailSignIn = false }
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        #expect(browser.page?.text.contains("/email/signin") == false)
        #expect(try await HTTPTestClient().get(accounts.server.url(Routes.emailSignIn, query: [("request", handle)])).status == 404)
    }

    /// A client's own `email_sign_in` (in `signet.json`) wins over `accounts.email_sign_in`, either
    /// way: the link is on that client's sign-in page and the form works only where it is on.
    @Test(arguments: [false, true]) func aClientsOwnSettingWinsOverTheGlobalOne(global: Bool) async throws {
        let json = #"{"clients": [{"id": "own", "type": "public", "first_party": true, "redirect_uris": ["\#(Interactive.callback)"], "scope": "openid email", "email_sign_in": \#(!global)}]}"#
        let clients = try SignetConfiguration(parsing: Data(json.utf8)).clients
        #expect(clients.map(\.spec.emailSignIn) == [!global])
        let accounts = try await Accounts.start { $0.accounts.emailSignIn = global; $0.clients = clients }
        defer { Task { await accounts.stop() } }
        for (client, offered) in [("own", !global), ("native", global)] {
            let browser = FormBrowser()
            let page = try await browser.open(accounts.app.authorizeURL(client: client, pkce: PKCEPair.generate(), extra: [("scope", "openid email")]))
            #expect(page.status == 200, "\(client)")
            let handle = try #require(URLComponents(url: page.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
            #expect(page.response.text.contains("/email/signin") == offered, "\(client)")
            let form = try await browser.open(accounts.server.url(Routes.emailSignIn, query: [("request", handle)]))
            #expect(form.status == (offered ? 200 : 404), "\(client)")
            if offered {
                let sent = try await browser.submit(formWithAction: Routes.emailSignIn, fields: ["email": Interactive.email])
                #expect(sent.status == 200 && sent.url.path == Routes.emailCode, "\(client): \(sent)")
            }
        }
        // The one client it was on for sent the one mail.
        #expect(try await accounts.sink.waitForMessages(1).count == 1)
    }

    @Test func withoutMailNeitherRecoveryNorEmailSignInIsOffered() async throws {
        let app = try Interactive { $0.accounts.emailSignIn = true }
        defer { app.stop() }
        let browser = FormBrowser()
        let page = try await browser.open(app.authorizeURL(pkce: PKCEPair.generate()))
        let handle = try #require(URLComponents(url: page.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
        #expect(!page.response.text.contains("/password/forgot") && !page.response.text.contains("/email/signin"))
        for path in [Routes.passwordForgot, Routes.emailSignIn] {
            #expect(try await HTTPTestClient().get(app.server.url(path, query: [("request", handle)])).status == 404)
        }
    }
}
