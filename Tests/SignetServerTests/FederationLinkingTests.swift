import Foundation
import SignetCore
import SignetCrypto
import SignetFederation
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import SignetWire
import Testing

/// Linking an upstream identity to an existing account after the user proves it (its password),
/// over real HTTP: app → Signet → MockProvider → Signet's link page → app.
@Suite(.endToEndLimit) struct FederationLinkingTests {
    static let failure = "The email or password is incorrect."
    /// Runs the provider leg and expects to land on the link page (nothing linked yet).
    static func reachLinkPage(_ fed: Federated, _ browser: FormBrowser, pkce: PKCEPair,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws -> BrowserOutcome {
        let outcome = try await fed.signIn(browser, pkce: pkce)
        #expect(outcome.redirect == nil, sourceLocation: sourceLocation)
        #expect(outcome.status == 200, sourceLocation: sourceLocation)
        #expect(outcome.url.path == Routes.federationLink, sourceLocation: sourceLocation)
        #expect(outcome.response.text.contains("already exists"), sourceLocation: sourceLocation)
        #expect(outcome.forms.count == 1, sourceLocation: sourceLocation)
        expectHardened(outcome.response, sourceLocation: sourceLocation)
        #expect(try fed.counts() == (users: 1, links: 0), sourceLocation: sourceLocation)
        return outcome
    }

    @Test(arguments: [MockProviderFlavor.google, .apple, .github, .generic])
    func linkingOffAsksForThePasswordThenLinks(_ flavor: MockProviderFlavor) async throws {
        let fed = try Federated(flavor, user: MockUser(email: Interactive.email))
        defer { fed.stop() }
        let browser = fed.browser()
        let pkce = PKCEPair.generate()
        _ = try await Self.reachLinkPage(fed, browser, pkce: pkce)
        // A wrong password: the same generic message, nothing linked.
        let wrong = try await browser.submit(fields: ["password": "not the password"])
        #expect(wrong.url.path == Routes.federationLink)
        #expect(wrong.response.text.contains(Self.failure))
        #expect(try fed.counts() == (users: 1, links: 0))
        // The right one links and continues the app's request.
        let done = try await browser.submit(fields: ["password": Interactive.password])
        let claims = try await fed.redeem(done, pkce: pkce)
        #expect(claims["sub"]?.stringValue == fed.interactive.user.id)
        #expect(claims["amr"] == .array([.string("fed"), .string("pwd")]))
        #expect(try fed.counts() == (users: 1, links: 1))
        let links = try fed.server.environment.storage.users.federatedIdentities(userID: fed.interactive.user.id)
        #expect(links.first?.connectionID == fed.connectionID)
        #expect(browser.cookies.all.contains { $0.name == "signet_link" && !$0.value.isEmpty } == false)
        // Next time the provider alone signs in as the same account, in a fresh browser.
        let again = try await FederationEndToEndTests.completes(fed, fed.browser())
        #expect(again == fed.interactive.user.id)
        #expect(try fed.counts() == (users: 1, links: 1))
    }

    @Test func anUnverifiedEmailIsNeverLinkedWithoutTheProof() async throws {
        let fed = try Federated(.google, user: MockUser(email: Interactive.email, emailVerified: false)) { $0.allowLinking = true }
        defer { fed.stop() }
        let browser = fed.browser()
        let pkce = PKCEPair.generate()
        _ = try await Self.reachLinkPage(fed, browser, pkce: pkce)
        let done = try await browser.submit(fields: ["password": Interactive.password])
        let claims = try await fed.redeem(done, pkce: pkce)
        #expect(claims["sub"]?.stringValue == fed.interactive.user.id)
        #expect(try fed.counts() == (users: 1, links: 1))
    }

    @Test func theProofWorksOnlyOnceAndOnlyInTheBrowserThatStartedIt() async throws {
        let fed = try Federated(.google, user: MockUser(email: Interactive.email))
        defer { fed.stop() }
        let browser = fed.browser()
        let pkce = PKCEPair.generate()
        let page = try await Self.reachLinkPage(fed, browser, pkce: pkce)
        let form = try #require(page.forms.first)
        let linkURL = page.url

        // Another browser with the URL (no link cookie): nothing shown, nothing accepted.
        let stranger = FormBrowser()
        let shown = try await stranger.open(linkURL)
        #expect(shown.status == 400)
        #expect(!shown.response.text.contains("<form"))
        #expect(shown.response.header("Content-Security-Policy")?.contains("form-action 'self';") == true)
        let submission = try form.submission(overrides: ["password": Interactive.password])
        let post = try await HTTPTestClient().post(fed.server.url(Routes.federationLink), form: submission)
        #expect(post.status == 400)
        // A stranger with its own link cookie value: still refused (the cookie is bound).
        let jar = CookieJar()
        let forged = HTTPTestClient(cookies: jar)
        jar.set(TestCookie(name: "signet_link", value: Base64URL.encode(Array(repeating: 7, count: 32)),
                                      domain: "127.0.0.1", path: "/"))
        #expect(try await forged.post(fed.server.url(Routes.federationLink), form: submission).status == 400)
        // The right browser with a wrong CSRF field: 403.
        let badCSRF = try await browser.submit(fields: ["password": Interactive.password, "csrf": "x"])
        #expect(badCSRF.status == 403)
        // A repeated field: malformed.
        let repeated = try await HTTPTestClient(cookies: browser.cookies).post(
            fed.server.url(Routes.federationLink), form: submission + [("link", "again")])
        #expect(repeated.status == 400)
        #expect(try fed.counts() == (users: 1, links: 0))

        // The real proof.
        _ = try await browser.open(linkURL)
        let done = try await browser.submit(fields: ["password": Interactive.password])
        _ = try await fed.redeem(done, pkce: pkce)
        // Submitting the same form again (a second tab): the link is gone.
        let replay = try await HTTPTestClient(cookies: browser.cookies).post(fed.server.url(Routes.federationLink), form: submission)
        #expect(replay.status == 400)
        #expect(try fed.counts() == (users: 1, links: 1))
    }

    @Test func failedProofsAreThrottledLikeTheSignInForm() async throws {
        let fed = try Federated(.google, user: MockUser(email: Interactive.email))
        defer { fed.stop() }
        let browser = fed.browser()
        let pkce = PKCEPair.generate()
        _ = try await Self.reachLinkPage(fed, browser, pkce: pkce)
        for attempt in 0..<5 {
            let wrong = try await browser.submit(fields: ["password": "wrong \(attempt)"])
            #expect(wrong.response.text.contains(Self.failure))
        }
        // Throttled: even the right password is refused now, with the same message.
        let throttled = try await browser.submit(fields: ["password": Interactive.password])
        #expect(throttled.redirect == nil)
        #expect(throttled.response.text.contains(Self.failure))
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    @Test func anAccountWithoutAPasswordCannotBeProvedHere() async throws {
        let fed = try Federated(.google, user: MockUser(email: "nopass@example.org"))
        defer { fed.stop() }
        let now = fed.server.clock.now
        try fed.server.environment.storage.users.insertUser(UserRecord(id: "nopass-user", email: "nopass@example.org", emailVerified: true,
                                                                       createdAt: now, updatedAt: now))
        let browser = fed.browser()
        let outcome = try await fed.signIn(browser, pkce: PKCEPair.generate())
        #expect(outcome.url.path == Routes.federationLink)
        #expect(outcome.response.text.contains("no password"))
        #expect(outcome.forms.isEmpty)
        #expect(try fed.counts() == (users: 2, links: 0))
    }

    @Test func anIdentityLinkedElsewhereMeanwhileIsRefusedAtTheApp() async throws {
        let fed = try Federated(.google, user: MockUser(email: Interactive.email))
        defer { fed.stop() }
        let browser = fed.browser()
        let pkce = PKCEPair.generate()
        _ = try await Self.reachLinkPage(fed, browser, pkce: pkce)
        // Meanwhile the same upstream identity got linked to another account.
        let storage = fed.server.environment.storage
        let now = fed.server.clock.now
        try storage.users.insertUser(UserRecord(id: "other-user", email: "other@example.org", emailVerified: true,
                                                createdAt: now, updatedAt: now))
        try storage.users.insertFederatedIdentity(FederatedIdentityRecord(
            connectionID: fed.connectionID, issuer: fed.mock.issuer, subject: fed.mock.user.subject, userID: "other-user",
            email: "other@example.org", createdAt: now))
        let done = try await browser.submit(fields: ["password": Interactive.password])
        try expectAppError(done, "access_denied", server: fed.server)
        #expect(try storage.users.federatedIdentities(userID: fed.interactive.user.id).isEmpty)
    }

    @Test func headlessSignInsReachTheSameProof() async throws {
        let fed = try Federated(.google, user: MockUser(email: Interactive.email))
        defer { fed.stop() }
        let pkce = PKCEPair.generate()
        let client = HTTPTestClient()
        let started = try await client.post(fed.server.url(Routes.headlessStart), json: FederationHeadlessTests.startBody(pkce: pkce))
        let requestID = try #require(try started.json()["requestId"]?.stringValue)
        let provider = try await client.post(fed.server.url(Routes.headlessProviderStart),
                                             json: .object(["requestId": .string(requestID), "connection": .string("google")]))
        let launchURL = try #require(try provider.json()["authorizationUrl"]?.stringValue.flatMap(URL.init(string:)))
        // The system browser opens Signet's launch URL (which binds it) and goes on to the provider.
        let browser = fed.browser()
        let page = try await browser.open(launchURL)
        #expect(page.url.path == Routes.federationLink)
        let done = try await browser.submit(fields: ["password": Interactive.password])
        let redirect = try done.requireRedirect()
        #expect(redirect.base == Federated.headlessRedirect)
        #expect(try fed.counts() == (users: 1, links: 1))
    }

    @Test func theNativeTokenExchangeRefusesWhatNeedsAProof() async throws {
        // Covered in NativeSignInEndToEndTests (invalid_grant, nothing linked); here the resolver
        // contract directly: linkRequired names the account, and link() is idempotent per user.
        let fed = try Federated(.google, user: MockUser(email: Interactive.email))
        defer { fed.stop() }
        let resolver = FederatedAccountResolver(server: fed.server.application.authorizationServer)
        var identity = UpstreamIdentity(issuer: fed.mock.issuer, subject: "s-1", emailVerified: false)
        identity.email = Interactive.email.uppercased()   // the resolver normalises it itself
        #expect(try resolver.resolve(identity, connectionID: "google", allowLinking: true) == .linkRequired(existingUserID: fed.interactive.user.id))
        #expect(try resolver.link(identity, connectionID: "google", toUser: fed.interactive.user.id) == .linked(fed.interactive.user))
        #expect(try resolver.link(identity, connectionID: "google", toUser: fed.interactive.user.id) == .existing(fed.interactive.user))
        #expect(try resolver.link(identity, connectionID: "google", toUser: "nobody") == nil)
        var fresh = identity
        fresh.subject = "s-2"
        fresh.email = "brand-new@example.org"
        #expect(try resolver.resolve(fresh, connectionID: "google", allowLinking: true) == .emailNotVerified)
    }
}
