import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// `sso_required` refuses every local first factor, not only the password: an emailed code or
/// link (asked for, or mailed before the domain was governed) and a passkey, on the web and
/// from a native app. Alice's domain (`example.com`) is governed by a connection the server does
/// not have, so nobody can be sent anywhere and every local way must stay shut.
@Suite(.endToEndLimit)
struct SSORequiredFirstFactorTests {
    /// Claims `domain` for a new organization, verified by the operator, bound `sso_required` to `connection`.
    static func govern(_ environment: ServerEnvironment, _ domain: String = "example.com", connection: String = "corp") throws {
        let organizationID = try DomainTestSupport.makeOrganization(environment, slug: "governing")
        let claims = environment.makeDomainClaims()
        _ = try claims.claim(domain, organizationID: organizationID)
        _ = try claims.verifyByOperator(domain, organizationID: organizationID)
        _ = try claims.bind(domain, organizationID: organizationID, connectionID: connection, policy: .ssoRequired)
    }

    static func refusals(_ server: TestServer) throws -> [String] {
        try server.environment.storage.audit.recentAudit(limit: 1000).filter { $0.event == "sign_in_refused" }
            .map { "\($0.method ?? ""):\($0.reason ?? "")" }
    }

    @Test func askingForASignInCodeForAGovernedDomainIsRefusedAndMailsNothing() async throws {
        let app = try Interactive {
            $0.mail.smtpURL = "smtp://127.0.0.1:9"   // nobody listens: a queued mail would stay pending
            $0.mail.from = "id@example.test"
            $0.accounts.emailSignIn = true
        }
        defer { app.stop() }
        try Self.govern(app.server.environment)
        let browser = FormBrowser()
        let page = try await browser.open(app.authorizeURL(pkce: PKCEPair.generate()))
        let handle = try #require(URLComponents(url: page.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
        _ = try await browser.open(app.server.url(Routes.emailSignIn, query: [("request", handle)]))
        let refused = try await browser.submit(formWithAction: Routes.emailSignIn, fields: ["email": "Alice@Example.com"])
        #expect(refused.status == 403)
        #expect(refused.redirect == nil && refused.url.path == Routes.emailSignIn)
        #expect(refused.response.text.contains("Accounts at <strong>example.com</strong> sign in through <strong>corp</strong>"))
        expectHardened(refused.response)
        #expect(try app.server.environment.storage.mailOutbox.pendingCount() == 0)
        #expect(Interactive.sessionCookie(browser) == nil)
        #expect(try Self.refusals(app.server) == ["otp:sso_required"])
        // Another domain still gets its code page.
        _ = try await browser.open(app.server.url(Routes.emailSignIn, query: [("request", handle)]))
        let other = try await browser.submit(formWithAction: Routes.emailSignIn, fields: ["email": "zed@example.org"])
        #expect(other.status == 200 && other.url.path == Routes.emailCode)
    }

    @Test func aCodeMailedBeforeTheDomainWasGovernedNoLongerSignsIn() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        _ = try await browser.open(accounts.server.url(Routes.emailSignIn, query: [("request", handle)]))
        let codePage = try await browser.submit(formWithAction: Routes.emailSignIn, fields: ["email": Interactive.email])
        #expect(codePage.url.path == Routes.emailCode)
        let code = try Accounts.code(in: try await accounts.mail(1))
        try Self.govern(accounts.server.environment)
        let refused = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(refused.status == 403)
        #expect(refused.redirect == nil)
        #expect(refused.response.text.contains("sign in through <strong>corp</strong>"))
        #expect(Interactive.sessionCookie(browser) == nil)
        #expect(try accounts.server.environment.storage.sessions.activeSessions(userID: accounts.app.user.id, now: accounts.server.clock.now).isEmpty)
        #expect(try Self.refusals(accounts.server) == ["otp:sso_required"])
    }

    @Test func aPasskeyOfAnAccountInAGovernedDomainSignsNothingIn() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        try Self.govern(fixture.server.environment)
        let (browser, options) = try await fixture.startSignIn()
        let refused = try await fixture.finishSignIn(try device.assert(options), browser: browser)
        expectPasskeyError(refused, status: 403, "access_denied", "Accounts at example.com sign in through their organization's connection")
        #expect(try Self.refusals(fixture.server) == ["passkey:sso_required"])
    }

    @Test func aNativePasskeySignInOfAGovernedAccountGetsNoCode() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        try Self.govern(fixture.server.environment)
        let pkce = PKCEPair.generate()
        let started = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: [
            ("response_type", "code"), ("client_id", "native"), ("redirect_uri", Interactive.callback), ("scope", "openid"),
            ("state", "s"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")])
        #expect(started.status == 200, "\(started)")
        let options = try #require(try started.json()["publicKey"])
        let finished = try await HTTPTestClient().send(
            method: "POST", url: fixture.server.url(Routes.passkeyNativeFinish, query: [("client_id", "native"), ("code_challenge", pkce.challenge)]),
            body: try device.assert(options), headers: ["Content-Type": "application/json"])
        expectPasskeyError(finished, status: 403, "access_denied", "example.com")
        #expect(try finished.json()["code"] == nil)
        #expect(try Self.refusals(fixture.server) == ["passkey:sso_required"])
    }
}
