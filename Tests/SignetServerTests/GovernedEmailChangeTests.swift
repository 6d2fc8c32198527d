import Foundation
import SignetCore
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The email-change escape from an `sso_required` domain, over real HTTP with the company IdP
/// (the mock provider) and a real SMTP sink: a member signed in through the IdP moves the
/// account to a personal address, resets a password there and signs in around the IdP with the
/// organization's claims. Closed by `UserService.emailChangeRefusal`: neither address of a
/// change may be in an `sso_required` domain, checked at the request and again at the change.
@Suite(.serialized, .endToEndLimit, .enabled(if: RealPart.aiosmtpd.canRun, RealPart.aiosmtpd.skipComment))
struct GovernedEmailChangeTests {
    static let bob = MockUser(subject: "bob-at-acme", email: "bob@acme.test", emailVerified: true)

    static func start(policy: OrganizationDomainRecord.Policy) async throws -> (fed: Federated, organizationID: String, sink: MailSink) {
        let sink = try await MailSink.start()
        let (fed, organizationID) = try DomainGovernanceEndToEndTests.governed(policy: policy, user: bob) { configuration in
            configuration.mail.smtpURL = sink.url
            configuration.mail.from = "id@example.test"
            configuration.branding.productName = "Example ID"
        }
        return (fed, organizationID, sink)
    }

    /// Bob signs in through the company IdP (email first): a session in `browser`, and his account.
    static func bobSignsIn(_ fed: Federated) async throws -> (browser: FormBrowser, user: UserRecord) {
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: .generate()))
        let outcome = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "bob@acme.test", "password": ""])
        #expect(outcome.redirect != nil, "\(outcome.response)")
        let user = try #require(try fed.server.environment.storage.users.user(email: "bob@acme.test"))
        let page = try await browser.open(fed.server.url(Routes.account))
        #expect(page.url.path == Routes.account && page.response.text.contains("action=\"\(Routes.accountEmail)\""))
        return (browser, user)
    }

    static func events(_ fed: Federated, _ name: String) throws -> [AuditEvent] {
        try DomainGovernanceEndToEndTests.events(fed.server, name)
    }

    @Test func aMemberOfAnSSORequiredDomainCannotMoveTheAccountToAPersonalAddress() async throws {
        let (fed, organizationID, sink) = try await Self.start(policy: .ssoRequired)
        defer { fed.stop(); Task { await sink.stop() } }
        let (browser, bob) = try await Self.bobSignsIn(fed)
        #expect(try DomainTestSupport.roles(fed.server.environment, organizationID: organizationID, userID: bob.id) == ["member"])
        // Step 1 of the escape: a personal address. Refused before any code is mailed.
        let refused = try await browser.submit(formWithAction: Routes.accountEmail, fields: ["email": "bob@personal.test"])
        #expect(refused.url.path == Routes.account && refused.url.query == "notice=email-managed", "\(refused.url)")
        #expect(refused.response.text.contains("Your address is managed by your organization"))
        #expect(try fed.server.environment.storage.users.user(id: bob.id)?.email == "bob@acme.test")
        #expect(try Self.events(fed, "email_change_refused").map(\.reason) == ["leaves_sso_required_domain"])
        #expect(try Self.events(fed, "email_change_requested").isEmpty)
        // Step 2: "forgot password" for the personal address finds no account (no code to reset with).
        let forgot = FormBrowser()
        _ = try await forgot.open(fed.server.url(Routes.passwordForgot))
        _ = try await forgot.submit(formWithAction: Routes.passwordForgot, fields: ["email": "bob@personal.test"])
        let mails = try await sink.waitForMessages(1)
        #expect(mails.count == 1)
        let mail = try mails[0].parsed()
        #expect(mail.to.contains("bob@personal.test") && mail.subject == "About your Example ID sign-in" && Accounts.codeIfAny(in: mail) == nil)
        // And the account still has no password to sign in with around the IdP.
        #expect(try fed.server.environment.storage.users.user(id: bob.id)?.passwordHash == nil)
    }

    @Test func aDomainThatBecameSSORequiredAfterTheRequestRefusesTheChange() async throws {
        let (fed, organizationID, sink) = try await Self.start(policy: .optional)
        defer { fed.stop(); Task { await sink.stop() } }
        let (browser, bob) = try await Self.bobSignsIn(fed)
        let codePage = try await browser.submit(formWithAction: Routes.accountEmail, fields: ["email": "bob@personal.test"])
        #expect(codePage.url.path == Routes.emailCode, "\(codePage.url)")
        let code = try Accounts.code(in: try await sink.waitForMessages(1)[0].parsed())
        // The organization makes its domain sso_required before Bob enters the code.
        _ = try fed.server.environment.makeDomainClaims().bind(DomainGovernanceEndToEndTests.domain, organizationID: organizationID,
                                                               connectionID: "corp", policy: .ssoRequired)
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(done.status == 403, "\(done.response)")
        #expect(done.response.text.contains("Your address is managed by your organization"))
        #expect(try fed.server.environment.storage.users.user(id: bob.id)?.email == "bob@acme.test")
        #expect(try Self.events(fed, "email_changed").isEmpty)
    }

    @Test func aPasswordAccountCannotMoveIntoAnSSORequiredDomain() async throws {
        let (fed, _, sink) = try await Self.start(policy: .ssoRequired)
        defer { fed.stop(); Task { await sink.stop() } }
        let browser = FormBrowser()
        _ = try await browser.open(fed.server.url(Routes.account))
        let back = try await fed.interactive.submitCredentials(browser)
        #expect(back.url.path == Routes.account)
        let refused = try await browser.submit(formWithAction: Routes.accountEmail,
                                               fields: ["email": "alice@acme.test", "password": Interactive.password])
        #expect(refused.url.query == "notice=email-governed-domain", "\(refused.url)")
        #expect(refused.response.text.contains("sign in there with that address instead"))
        #expect(try fed.server.environment.storage.users.user(id: fed.interactive.user.id)?.email == Interactive.email)
        #expect(try Self.events(fed, "email_change_refused").map(\.reason) == ["enters_sso_required_domain"])
    }
}
