import Foundation
import SignetClientCore
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetPostgres
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The one sign-in gate, from outside: each way in that used to decide on its own (the email code
/// and link, the sign-up's confirmation, the passkey offer, the native ID-token exchange, the
/// second-factor step in another browser, the password change) now gets the gate's answer.
@Suite(.endToEndLimit) struct SignInGateEndToEndTests {
    /// An email sign-in in a fresh browser up to the code page; returns the mail's code.
    func emailCode(_ accounts: Accounts, _ browser: FormBrowser, pkce: PKCEPair, mailNumber: Int,
                   extra: [(String, String?)] = [], client: String = "native") async throws -> String {
        let page = try await browser.open(accounts.app.authorizeURL(client: client, pkce: pkce, extra: extra))
        try #require(page.status == 200, "\(page)")
        let handle = try #require(URLComponents(url: page.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
        _ = try await browser.open(accounts.server.url(Routes.emailSignIn, query: [("request", handle)]))
        let asked = try await browser.submit(formWithAction: Routes.emailSignIn, fields: ["email": Interactive.email])
        try #require(asked.url.path == Routes.emailCode, "\(asked)")
        return try Accounts.code(in: try await accounts.mail(mailNumber))
    }

    /// Gives the shared user a confirmed authenticator app directly (as `/account/security/totp` would).
    static func giveTOTP(_ server: TestServer, userID: String) throws -> TOTP {
        let service = SecondFactorService(server: server.application.authorizationServer, key: server.environment.masterKey.secondFactorKey)
        let totp = try #require(try service.enrolment(userID: userID))
        guard case .success = try service.confirm(userID: userID, code: totp.code(step: TOTP.step(at: server.clock.now))) else {
            throw TestingError("the TOTP factor was not confirmed")
        }
        server.clock.advance(by: 30)
        return totp
    }

    static func confirm(_ server: TestServer, _ user: UserRecord) throws {
        try server.environment.storage.users.updateProfile(userID: user.id, name: user.name, givenName: nil, familyName: nil,
                                                          emailVerified: true, now: server.clock.now)
    }

    // MARK: email sign-in (defect 1)

    @Test func anEmailCodeForAUserWithAnAuthenticatorAppAsksForItAndStartsNoSessionBefore() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        // Confirmed: an unconfirmed account's factor would be claimed away by the mailbox's proof.
        try Self.confirm(accounts.server, accounts.app.user)
        let totp = try Self.giveTOTP(accounts.server, userID: accounts.app.user.id)
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let code = try await emailCode(accounts, browser, pkce: pkce, mailNumber: 1)
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(done.url.path == Routes.secondFactor, "\(done)")
        #expect(Interactive.sessionCookie(browser) == nil)
        let passed = try await browser.submit(formWithAction: Routes.secondFactor,
                                              fields: ["code": totp.code(step: TOTP.step(at: accounts.server.clock.now))])
        let tokens = try await accounts.app.redeem(code: try #require(try passed.requireRedirect().query()["code"]), pkce: pkce)
        let claims = try Accounts.idTokenClaims(tokens)
        #expect(claims["amr"] == .array([.string("otp"), .string("mfa")]))
        #expect(claims["acr"]?.stringValue == "urn:signet:acr:mfa")
    }

    @Test func anEmailCodeThroughAnMFARequiredClientSendsAUserWithoutAFactorToEnrol() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let storage = accounts.server.environment.storage
        var record = try #require(try storage.clients.client(id: "native"))
        record.extra = Client.extra(mfaRequired: true, applicationType: .native)
        try storage.clients.upsertClient(record)   // before any request reads (and caches) the client
        let browser = FormBrowser()
        let code = try await emailCode(accounts, browser, pkce: .generate(), mailNumber: 1)
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(done.url.path == Routes.secondFactorSetup, "\(done)")
        #expect(Interactive.sessionCookie(browser) == nil)
    }

    @Test func acrValuesMFAOnAnEmailCodeIsNotAnsweredWithOneFactor() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let code = try await emailCode(accounts, browser, pkce: .generate(), mailNumber: 1,
                                       extra: [("acr_values", "urn:signet:acr:mfa")])
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(done.url.path == Routes.secondFactorSetup, "\(done)")
        #expect(Interactive.sessionCookie(browser) == nil)
    }

    @Test func anEmailSignInEndsTheBrowsersPreviousSession() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        _ = try await accounts.app.signIn(browser, pkce: .generate())
        let before = try #require(Interactive.sessionCookie(browser)).value
        let code = try await emailCode(accounts, browser, pkce: .generate(), mailNumber: 1, extra: [("prompt", "login")])
        _ = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        let after = try #require(Interactive.sessionCookie(browser)).value
        #expect(before != after)
        let tokens = accounts.server.application.authorizationServer.tokens
        #expect(try accounts.server.environment.storage.sessions.session(idHash: tokens.hash(before), now: accounts.server.clock.now)?
            .isActive(at: accounts.server.clock.now) != true)
    }

    // MARK: the second factor belongs to the browser that gave the first (defect 7)

    @Test func anotherBrowserHoldingTheSecondFactorURLGetsNothing() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let totp = try Self.giveTOTP(env.server, userID: env.user.id)
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        let step = try await env.submitCredentials(browser)
        #expect(step.url.path == Routes.secondFactor, "\(step)")
        let other = FormBrowser()
        let stolen = try await other.open(step.url)
        #expect(stolen.status == 400 || stolen.status == 404, "\(stolen)")
        #expect(!stolen.response.text.contains("name=\"code\""))
        // The right browser still can.
        let page = try await browser.open(step.url)
        #expect(page.status == 200)
        let passed = try await browser.submit(formWithAction: Routes.secondFactor,
                                              fields: ["code": totp.code(step: TOTP.step(at: env.server.clock.now))])
        #expect(passed.redirect != nil, "\(passed)")
        #expect(Interactive.sessionCookie(other) == nil)
    }

    // MARK: the passkey offer continues only its own sign-in (defect 3)

    @Test func thePasskeyOfferDoesNotAnswerPromptLoginWithAnOldSession() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await env.signIn(browser, pkce: .generate())
        env.server.clock.advance(by: 120)
        // A new request with prompt=login: the old session must not answer it through the offer.
        let page = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("prompt", "login")]))
        let handle = try #require(URLComponents(url: page.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
        let csrfCookie = try #require(browser.cookies["signet_csrf"]).value
        let csrf = CSRFTokens(key: env.server.environment.masterKey.browserKey, random: SystemRandomSource())
            .token(browserValue: csrfCookie, purpose: handle)
        let answer = try await HTTPTestClient(cookies: browser.cookies).post(env.server.url(Routes.passkeyOffer),
                                                                             form: [("request", handle), ("csrf", csrf), ("skip", "1")])
        #expect(answer.status == 303)
        #expect(answer.location?.hasPrefix(Routes.signIn) == true, "\(answer)")
    }

    // MARK: a password change is not a fresh sign-in

    @Test func aPasswordChangeKeepsTheSessionsAuthTime() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.server.url(Routes.account))
        _ = try await env.submitCredentials(browser)
        let storage = env.server.environment.storage
        let tokens = env.server.application.authorizationServer.tokens
        let first = try #require(Interactive.sessionCookie(browser)).value
        let authTime = try #require(try storage.sessions.session(idHash: tokens.hash(first), now: env.server.clock.now)).authTime
        env.server.clock.advance(by: 60)
        let changed = try await browser.submit(formWithAction: Routes.accountPassword,
                                               fields: ["current_password": Interactive.password, "new_password": "a different long phrase"])
        #expect(changed.status == 200, "\(changed)")
        let second = try #require(Interactive.sessionCookie(browser)).value
        #expect(second != first)
        let renewed = try #require(try storage.sessions.session(idHash: tokens.hash(second), now: env.server.clock.now))
        #expect(abs(renewed.authTime.timeIntervalSince(authTime)) < 0.001)
    }

    // MARK: the native ID-token exchange (defect 2)

    /// A nonce and an ID token for it from the fixture's Google.
    func exchangeGoogle(_ fixture: NativeSignInFixture, client: String = "native-app") async throws
        -> (status: Int, json: [String: JSONValue], headers: [String: String]) {
        let nonce = try await fixture.nonce(client: client)
        return try await fixture.exchange(try fixture.google.mintIDToken(nonce: nonce), nonce: nonce, client: client)
    }

    @Test func aNativeSignInOfAUserWithAnAuthenticatorAppIsSentToTheBrowser() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let first = try await exchangeGoogle(fixture)
        try #require(first.status == 200, "\(first.json)")
        let user = try #require(try fixture.core.storage.users.user(email: "alice@example.com"))
        _ = try Self.giveTOTP(fixture.server, userID: user.id)
        let grantsBefore = try fixture.core.storage.refreshTokens.activeRefreshGrants(userID: user.id, now: fixture.server.clock.now).count
        let refused = try await exchangeGoogle(fixture)
        #expect(refused.status == 400)
        #expect(refused.json["error"]?.stringValue == "interaction_required", "\(refused.json)")
        #expect(try fixture.core.storage.refreshTokens.activeRefreshGrants(userID: user.id, now: fixture.server.clock.now).count == grantsBefore)
    }

    @Test func aNativeSignInThroughAnMFARequiredClientCreatesNobody() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        var spec = ClientSpec(id: "bank-app", isPublic: true, scope: "openid email offline_access", grantTypes: [NativeSignInFixture.tokenExchange],
                              firstParty: true)
        spec.mfaRequired = true
        _ = try ClientRegistration(server: fixture.core).register(spec)
        let refused = try await exchangeGoogle(fixture, client: "bank-app")
        #expect(refused.json["error"]?.stringValue == "interaction_required", "\(refused.json)")
        #expect(try fixture.userCount() == 0)
    }

    @Test func aNativeSignInForAnSSORequiredDomainThroughAnotherConnectionCreatesAndLinksNothing() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        try SSORequiredFirstFactorTests.govern(fixture.server.environment, "example.com", connection: "oidc")
        let refused = try await exchangeGoogle(fixture)
        #expect(refused.status == 400)
        #expect(refused.json["error"]?.stringValue == "interaction_required", "\(refused.json)")
        #expect(try fixture.userCount() == 0)
        // An existing account of that domain is not linked either.
        let user = try fixture.server.environment.makeUserService().create(email: "alice@example.com", password: nil)
        let again = try await exchangeGoogle(fixture)
        #expect(again.json["error"]?.stringValue == "interaction_required")
        #expect(try fixture.core.storage.users.federatedIdentities(userID: user.id).isEmpty)
    }

    // MARK: pre-account takeover (defect 4)

    @Test func anEmailSignInClaimsAnAccountNobodyConfirmedAndItsPasswordStopsWorking() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        try await claimedByEmail(accounts)
    }

    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func theClaimOnPostgreSQL() async throws {
        let admin = try RealPart.postgres()
        let database = try PostgresStorage.temporary(adminConninfo: admin)
        let name = try #require(database.temporaryDatabaseName)
        let directory = try TemporaryDirectory(prefix: "pgclaim")
        let urlFile = try directory.write(PostgresNodesTests.conninfo(admin, database: name), to: "database.conninfo")
        let keyFile = try directory.write(MasterKey.generateHex(random: SystemRandomSource()), to: "master.key")
        let accounts = try await Accounts.start {
            $0.database.driver = .postgres
            $0.database.url = .file(urlFile)
            $0.masterKey = .file(keyFile)
        }
        defer { Task { await accounts.stop() } }
        try await claimedByEmail(accounts)
        _ = database
    }

    /// The victim's email sign-in claims the account someone made with the victim's address.
    func claimedByEmail(_ accounts: Accounts) async throws {
        // The shared user plays the account an attacker made with the victim's address: a password, unconfirmed.
        let storage = accounts.server.environment.storage
        try #require(try storage.users.user(id: accounts.app.user.id)?.emailVerified == false)
        let attacker = FormBrowser()
        _ = try await accounts.app.signIn(attacker, pkce: .generate())
        let attackerSession = try #require(Interactive.sessionCookie(attacker))
        // The victim signs in with a mailed code.
        let victim = FormBrowser()
        let code = try await emailCode(accounts, victim, pkce: .generate(), mailNumber: 1)
        let done = try await victim.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(done.redirect != nil, "\(done)")
        let claimed = try #require(try storage.users.user(id: accounts.app.user.id))
        #expect(claimed.emailVerified && claimed.passwordHash == nil)
        // The attacker's session and password are gone.
        let tokens = accounts.server.application.authorizationServer.tokens
        #expect(try storage.sessions.session(idHash: tokens.hash(attackerSession.value), now: accounts.server.clock.now)?
            .isActive(at: accounts.server.clock.now) != true)
        let again = FormBrowser()
        _ = try await again.open(accounts.app.authorizeURL(pkce: .generate()))
        let refused = try await accounts.app.submitCredentials(again)
        #expect(refused.redirect == nil && refused.url.path == Routes.signIn, "\(refused)")
        #expect(try storage.audit.recentAudit(limit: 200).contains { $0.event == "unconfirmed_account_claimed" })
    }

    @Test func aConfirmedAccountKeepsItsPasswordAfterAnEmailSignIn() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let storage = accounts.server.environment.storage
        let user = accounts.app.user
        try Self.confirm(accounts.server, user)
        let browser = FormBrowser()
        let code = try await emailCode(accounts, browser, pkce: .generate(), mailNumber: 1)
        _ = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(try storage.users.user(id: user.id)?.passwordHash != nil)
        #expect(try await accounts.app.signIn(FormBrowser(), pkce: .generate()).query()["code"] != nil)
    }

    /// Whether `email` and `password` still sign in.
    static func passwordWorks(_ env: Interactive, email: String, password: String) async throws -> Bool {
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        return try await env.submitCredentials(browser, email: email, password: password).redirect != nil
    }

    @Test func aProviderLinkingAnUnconfirmedAccountEndsTheEarlierPasswordAndSession() async throws {
        // (b): the attacker made alice's account with her address; Google verifies the address and may link.
        let fed = try Federated(.google, user: MockUser(email: Interactive.email)) { $0.allowLinking = true }
        defer { fed.stop() }
        let attacker = FormBrowser()
        _ = try await fed.interactive.signIn(attacker, pkce: .generate())
        let attackerSession = try #require(Interactive.sessionCookie(attacker)).value
        #expect(try await Self.passwordWorks(fed.interactive, email: Interactive.email, password: Interactive.password))
        let linked = try await FederationEndToEndTests.completes(fed, fed.browser())
        #expect(linked == fed.interactive.user.id)
        let storage = fed.server.environment.storage
        let tokens = fed.server.application.authorizationServer.tokens
        #expect(try storage.users.user(id: linked)?.passwordHash == nil)
        #expect(try storage.sessions.session(idHash: tokens.hash(attackerSession), now: fed.server.clock.now)?.isActive(at: fed.server.clock.now) != true)
        #expect(try await !Self.passwordWorks(fed.interactive, email: Interactive.email, password: Interactive.password))
    }

    @Test func anOrganizationsIdPOnAnOptionalDomainClaimsAnUnconfirmedAccountBeforeTheMembership() async throws {
        // (c): the attacker made frank's account (and a passkey) before frank's first sign-in through his company's IdP.
        let (fed, organizationID) = try DomainGovernanceEndToEndTests.governed(
            policy: .optional, user: MockUser(subject: "frank-at-acme", email: "frank@acme.test", emailVerified: true))
        defer { fed.stop() }
        let storage = fed.server.environment.storage
        let frank = try fed.server.environment.makeUserService().create(email: "frank@acme.test", password: "the attacker's password")
        try storage.passkeys.insertPasskey(PasskeyRecord(id: [7, 7, 7], userID: frank.id, publicKey: [1], signCount: 0, backupEligible: false,
                                                         backupState: false, transports: [], name: "Attacker's key", createdAt: fed.server.clock.now))
        let pkce = PKCEPair.generate()
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: pkce))
        let claims = try await fed.redeem(try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "frank@acme.test"]), pkce: pkce)
        #expect(claims["sub"]?.stringValue == frank.id)
        #expect(try storage.passkeys.passkeys(userID: frank.id).isEmpty)
        #expect(try storage.users.user(id: frank.id)?.passwordHash == nil)
        #expect(try storage.organizations.membership(organizationID: organizationID, userID: frank.id) != nil)
    }
}
