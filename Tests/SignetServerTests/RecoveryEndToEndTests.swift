import Foundation
import SignetClientCore
import SignetCore
import SignetFormEncoding
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// "Forgot password?" over real HTTP with the real SMTP sink.
@Suite(.endToEndLimit) struct RecoveryEndToEndTests {
    /// Opens the forgot-password page from a sign-in page and posts `email` with a no-redirect
    /// client sharing the browser's cookies; returns the raw answer.
    func askReset(_ accounts: Accounts, email: String) async throws -> (answer: TestResponse, browser: FormBrowser) {
        let browser = FormBrowser()
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        #expect(browser.page?.text.contains("href=\"/password/forgot?request=\(handle)\"") == true)
        _ = try await browser.open(accounts.server.url(Routes.passwordForgot, query: [("request", handle)]))
        let form = try #require(browser.forms.first { $0.action.path == Routes.passwordForgot })
        let pairs = try form.submission(overrides: ["email": email], removing: [], pressing: nil)
        let answer = try await HTTPTestClient(cookies: browser.cookies).post(form.action, form: pairs)
        return (answer, browser)
    }

    @Test func aKnownAndAnUnknownAddressGetTheSameAnswer() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let (known, _) = try await askReset(accounts, email: Interactive.email)
        let (unknown, _) = try await askReset(accounts, email: "nobody@example.com")
        #expect(known.status == 303 && unknown.status == 303)
        #expect(known.body == unknown.body)
        // The same headers; the Location differs only in the random challenge id.
        let knownID = try #require(known.location?.components(separatedBy: "challenge=").last)
        let unknownID = try #require(unknown.location?.components(separatedBy: "challenge=").last)
        #expect(knownID.count == unknownID.count && knownID != unknownID)
        expectSameHeaders(known, unknown, ignoring: ["location"])
        #expect(known.location?.replacingOccurrences(of: knownID, with: "") == unknown.location?.replacingOccurrences(of: unknownID, with: ""))
        // Both stored one challenge and one mail; only the mail says which.
        let mails = try await accounts.sink.waitForMessages(2).map { try $0.parsed() }
        let toKnown = try #require(mails.first { $0.to.contains(Interactive.email) })
        let toUnknown = try #require(mails.first { $0.to.contains("nobody@example.com") })
        #expect(toKnown.subject == "Reset your Example ID password")
        _ = try Accounts.code(in: toKnown)
        #expect(toUnknown.subject == "About your Example ID sign-in")
        #expect(toUnknown.text?.contains("no Example ID account uses it") == true)
        #expect(Accounts.codeIfAny(in: toUnknown) == nil)
    }

    /// An `sso_required` domain has no password to reset: the form answers exactly as for any
    /// address, but the mail (a real one, through the sink) says the organization signs its
    /// addresses in through its identity provider and links to the sign-in page; it carries no
    /// code and no reset link, and the challenge stored for it belongs to no user, so nothing can
    /// reset the password.
    @Test func aResetForAnSSORequiredDomainMailsTheOrganizationsWayInInstead() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        try SSORequiredFirstFactorTests.govern(accounts.server.environment)
        let (governed, _) = try await askReset(accounts, email: Interactive.email)
        let (other, _) = try await askReset(accounts, email: "nobody@example.org")
        #expect(governed.status == 303 && other.status == 303, "\(governed)")
        #expect(governed.body == other.body)
        expectSameHeaders(governed, other, ignoring: ["location"])
        let governedID = try #require(governed.location?.components(separatedBy: "challenge=").last)
        let otherID = try #require(other.location?.components(separatedBy: "challenge=").last)
        #expect(governed.location?.replacingOccurrences(of: governedID, with: "") == other.location?.replacingOccurrences(of: otherID, with: ""))
        // The challenge can never be answered: it names no user.
        let challenge = try #require(try accounts.server.environment.storage.emailChallenges.challenge(id: governedID))
        #expect(challenge.purpose == .resetPassword && challenge.userID == nil)

        let mails = try await accounts.sink.waitForMessages(2).map { try $0.parsed() }
        let mail = try #require(mails.first { $0.to.contains(Interactive.email) })
        #expect(mail.subject == "How you sign in to Example ID")
        let text = try #require(mail.text), html = try #require(mail.html)
        #expect(text.contains("Governing signs in its addresses through its own identity provider, corp"), "\(text)")
        #expect(Accounts.codeIfAny(in: mail) == nil)
        for body in [text, html] {
            #expect(!body.contains(Routes.emailLink) && !body.contains("token=") && !body.contains(Routes.passwordForgot), "\(body)")
        }
        let signIn = try Accounts.link("Sign in", in: mail)
        // The account page starts a sign-in of its own: the mail carries none of the requester's.
        #expect(signIn.path == Routes.account && signIn.query == nil, "\(signIn)")
        #expect(signIn.absoluteString.hasPrefix(accounts.server.issuer))
        // The ungoverned address still gets its usual mail.
        #expect(mails.first { $0.to.contains("nobody@example.org") }?.subject == "About your Example ID sign-in")
        // The password is untouched.
        #expect(try accounts.server.environment.storage.users.user(id: accounts.app.user.id)?.passwordHash != nil)
    }

    @Test func theCodeSetsANewPasswordOnceEndsEverySessionAndRevokesTheGrants() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        // Signed in elsewhere, with a refresh token.
        let other = FormBrowser()
        let pkce = PKCEPair.generate()
        let redirect = try await accounts.app.signIn(other, pkce: pkce)
        let tokens = try await accounts.app.redeem(code: try #require(redirect.query()["code"]), pkce: pkce)
        let refresh = try #require(try tokens.json()["refresh_token"]?.stringValue)

        let (answer, browser) = try await askReset(accounts, email: Interactive.email)
        let codePage = try await browser.open(accounts.server.url(try #require(answer.location)))
        #expect(codePage.status == 200 && codePage.response.text.contains("New password"))
        let code = try Accounts.code(in: try await accounts.mail(1))
        // A weak new password costs no attempt and changes nothing.
        let weak = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code, "password": "short"])
        #expect(weak.status == 400 && weak.response.text.contains("at least 8 characters"))
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code, "password": "my brand new secret"])
        #expect(done.status == 200 && done.response.text.contains("Your password is changed"))
        // Replayed: dead.
        _ = try await browser.open(codePage.url)
        #expect(browser.page?.status == 410)
        // The other browser's session and the refresh token are gone.
        let again = try await other.open(accounts.app.authorizeURL(pkce: PKCEPair.generate()))
        #expect(again.redirect == nil && again.url.path == Routes.signIn)
        let refreshed = try await HTTPTestClient().post(accounts.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
        #expect(try refreshed.status == 400 && refreshed.json()["error"]?.stringValue == "invalid_grant")
        let users = accounts.server.environment.makeUserService()
        #expect(try users.authenticate(email: Interactive.email, password: Interactive.password) == nil)
        #expect(try users.authenticate(email: Interactive.email, password: "my brand new secret") != nil)
        #expect(try accounts.server.environment.storage.users.user(email: Interactive.email)?.emailVerified == true)
    }

    @Test func theResetLinkWorksOnceAndIsBuiltFromTheIssuerNotTheHostHeader() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        _ = try await browser.open(accounts.server.url(Routes.passwordForgot, query: [("request", handle)]))
        let form = try #require(browser.forms.first { $0.action.path == Routes.passwordForgot })
        let body = FormEncoding.encode(try form.submission(overrides: ["email": Interactive.email], removing: [], pressing: nil))
        let cookie = try #require(browser.cookies.headerValue(for: form.action))
        let request = "POST \(Routes.passwordForgot) HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n"
            + "Forwarded: host=evil.example\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        guard case .response(let raw) = try await RawHTTPConnection.exchange(port: accounts.server.port, request: request) else {
            Issue.record("no response")
            return
        }
        #expect(raw.status == 303)
        #expect(raw.header("Location")?.hasPrefix("/email/code?challenge=") == true)
        let mail = try await accounts.mail(1)
        let link = try Accounts.link("Choose a new password", in: mail)
        #expect(link.absoluteString.hasPrefix(accounts.server.issuer + "/email/link?token="))
        #expect(mail.text?.contains("evil.example") == false && mail.html?.contains("evil.example") == false)

        // In any browser: the page, then the new password.
        let phone = FormBrowser()
        let page = try await phone.open(link)
        #expect(page.status == 200 && page.response.text.contains("Choose a new password"))
        let done = try await phone.submit(formWithAction: Routes.emailLink, fields: ["password": "reset by the link"])
        #expect(done.status == 200 && done.response.text.contains("Your password is changed"))
        #expect(try await phone.open(link).status == 410)
        #expect(try accounts.server.environment.makeUserService().authenticate(email: Interactive.email, password: "reset by the link") != nil)
    }

    @Test func resetsAreThrottledPerAddressTheSameForKnownAndUnknown() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        for email in [Interactive.email, "ghost@example.com"] {
            for _ in 0..<EmailChallenges.perAddressLimit {
                #expect(try await askReset(accounts, email: email).answer.status == 303)
            }
            let refused = try await askReset(accounts, email: email).answer
            #expect(refused.status == 429 && refused.header("Retry-After") == "3600")
            #expect(refused.text.contains("Too many codes"))
        }
    }
}
