import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Organizations' governed email domains over real HTTP: home-realm discovery to the company's
/// IdP (the mock provider as an `oidc` connection), `sso_required` refusals, linking an existing
/// local account, just-in-time membership, the headless start with an email.
@Suite(.endToEndLimit)
struct DomainGovernanceEndToEndTests {
    static let domain = "acme.test"

    /// A server with the company IdP as connection `corp` (and, for the social refusal, a second
    /// connection `social` to the same mock), `acme.test` claimed by an organization, verified by
    /// the operator and bound to `corp` with `policy`.
    static func governed(policy: OrganizationDomainRecord.Policy = .ssoRequired, user: MockUser,
                         configure: @escaping (inout SignetConfiguration) -> Void = { _ in }) throws -> (Federated, String) {
        let fed = try Federated(.generic, id: "corp", user: user, adjust: { $0.displayName = "Acme SSO" }, twin: "social",
                                configure: configure)
        let organizationID = try DomainTestSupport.makeOrganization(fed.server.environment, slug: "acme")
        let claims = fed.server.environment.makeDomainClaims()
        _ = try claims.claim(domain, organizationID: organizationID)
        _ = try claims.verifyByOperator(domain, organizationID: organizationID)
        _ = try claims.bind(domain, organizationID: organizationID, connectionID: "corp", policy: policy)
        return (fed, organizationID)
    }

    static func events(_ server: TestServer, _ name: String) throws -> [AuditEvent] {
        try server.environment.storage.audit.recentAudit(limit: 1000).filter { $0.event == name }
    }

    @Test func aGovernedDomainGoesStraightToTheCompanyIdPAndJoinsTheOrganization() async throws {
        let (fed, organizationID) = try Self.governed(user: MockUser(subject: "bob-at-acme", email: "bob@acme.test"))
        defer { fed.stop() }
        let pkce = PKCEPair.generate()
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: pkce))
        // Email only: the domain's connection, before any local choice.
        let outcome = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": " Bob@ACME.test ", "password": ""])
        let claims = try await fed.redeem(outcome, pkce: pkce)
        #expect(fed.mock.requestCount("/authorize") == 1)
        let user = try #require(try fed.server.environment.storage.users.user(email: "bob@acme.test"))
        #expect(claims["sub"]?.stringValue == user.id)
        #expect(try fed.server.environment.storage.users.federatedIdentities(userID: user.id).map(\.connectionID) == ["corp"])
        // Just-in-time membership with the default role.
        #expect(try DomainTestSupport.roles(fed.server.environment, organizationID: organizationID, userID: user.id) == ["member"])
        #expect(try Self.events(fed.server, "organization_member_jit").map(\.subjectID) == [user.id])
        // Another domain still signs in with its password.
        let local = fed.browser()
        _ = try await local.open(fed.interactive.authorizeURL(pkce: pkce))
        #expect(try await fed.interactive.submitCredentials(local).requireRedirect().query()["code"] != nil)
        #expect(fed.mock.requestCount("/authorize") == 1)
    }

    @Test func aPasswordSignInWithAGovernedDomainIsRefusedWithAPageThatSaysWhere() async throws {
        let (fed, _) = try Self.governed(user: MockUser(email: "carol@acme.test"))
        defer { fed.stop() }
        let carol = try fed.server.environment.makeUserService().create(email: "carol@acme.test", name: "Carol", password: "carol's good password")
        for (language, words) in [("en", "sign in through"), ("de", "melden sich über")] {
            let browser = fed.browser()
            _ = try await browser.open(fed.interactive.authorizeURL(pkce: PKCEPair.generate()))
            let form = try #require(browser.forms.first { $0.action.path == Routes.signIn })
            let pairs = try form.submission(overrides: ["email": "carol@acme.test", "password": "carol's good password"])
            let refused = try await HTTPTestClient(cookies: browser.cookies).post(form.action, form: pairs, headers: [
                "Accept-Language": language, "Origin": "http://127.0.0.1:\(fed.server.port)"])
            #expect(refused.status == 403)
            #expect(refused.location == nil)
            #expect(refused.text.contains(words))
            #expect(refused.text.contains("<strong>Acme SSO</strong>"))
            #expect(refused.text.contains("connection=corp"))   // the way on, to the domain's connection
            #expect(refused.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            #expect(refused.header("Set-Cookie")?.contains("signet_session") != true)
        }
        #expect(fed.mock.requestCount("/authorize") == 0)
        #expect(try fed.server.environment.storage.sessions.activeSessions(userID: carol.id, now: fed.server.clock.now).isEmpty)
        #expect(try Self.events(fed.server, "sign_in_refused").map(\.reason) == ["sso_required", "sso_required"])
    }

    @Test func signUpWithAGovernedDomainIsRefusedAndCreatesNothing() async throws {
        let (fed, _) = try Self.governed(user: MockUser(email: "dave@acme.test")) {
            $0.accounts.signUp = .open
            $0.mail.smtpURL = "smtp://127.0.0.1:9"
            $0.mail.from = "id@example.test"
        }
        defer { fed.stop() }
        let browser = fed.browser()
        let page = try await browser.open(fed.interactive.authorizeURL(pkce: PKCEPair.generate()))
        let handle = try #require(URLComponents(url: page.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
        _ = try await browser.open(fed.server.url(Routes.signUp, query: [("request", handle)]))
        let refused = try await browser.submit(formWithAction: Routes.signUp,
                                               fields: ["email": "Dave@Acme.Test", "password": "a fine new passphrase", "name": "Dave"])
        #expect(refused.status == 403)
        #expect(refused.response.text.contains("are not created here"))
        #expect(try fed.server.environment.storage.users.user(email: "dave@acme.test") == nil)
        #expect(try fed.server.environment.storage.mailOutbox.pendingCount() == 0)
        #expect(try Self.events(fed.server, "sign_up").isEmpty)
    }

    @Test func aSocialSignInWithAGovernedDomainIsRefused() async throws {
        let (fed, _) = try Self.governed(user: MockUser(subject: "erin-social", email: "erin@acme.test"))
        defer { fed.stop() }
        let refused = try await fed.start(fed.browser(), pkce: PKCEPair.generate(), connection: "social")
        #expect(refused.status == 403)
        #expect(refused.redirect == nil)
        #expect(refused.response.text.contains("not through"))
        #expect(try fed.counts() == (users: 1, links: 0))   // only Interactive's alice
        #expect(try fed.federationAudit() == ["federation_failed:sso_required"])
    }

    @Test func anExistingLocalAccountIsLinkedOnItsFirstSSOSignInAndItsPasswordDisabled() async throws {
        let (fed, _) = try Self.governed(user: MockUser(subject: "frank-at-acme", email: "frank@acme.test", emailVerified: true))
        defer { fed.stop() }
        // `corp` does not allow linking by itself (Connection default): the governed domain does.
        let frank = try fed.server.environment.makeUserService().create(email: "frank@acme.test", name: "Frank", password: "frank's old password")
        #expect(frank.passwordHash != nil)
        // Confirmed: an unconfirmed account would be claimed by the provider's proof instead (UnconfirmedAccountClaim).
        try fed.server.environment.storage.users.updateProfile(userID: frank.id, name: frank.name, givenName: nil, familyName: nil,
                                                               emailVerified: true, now: fed.server.clock.now)
        let pkce = PKCEPair.generate()
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: pkce))
        let claims = try await fed.redeem(try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "frank@acme.test"]),
                                          pkce: pkce)
        #expect(claims["sub"]?.stringValue == frank.id)
        #expect(try fed.server.environment.storage.users.federatedIdentities(userID: frank.id).map(\.connectionID) == ["corp"])
        #expect(try fed.server.environment.storage.users.user(id: frank.id)?.passwordHash == nil)
        #expect(try Self.events(fed.server, "password_disabled").map(\.subjectID) == [frank.id])
        #expect(try fed.counts() == (users: 2, links: 1))
    }

    @Test func anUnverifiedUpstreamEmailLinksNothing() async throws {
        let (fed, _) = try Self.governed(user: MockUser(subject: "gina-unverified", email: "gina@acme.test", emailVerified: false))
        defer { fed.stop() }
        let gina = try fed.server.environment.makeUserService().create(email: "gina@acme.test", name: "Gina", password: "gina's own password")
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: PKCEPair.generate()))
        let outcome = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "gina@acme.test"])
        // Not linked automatically: the user is asked to prove the account first (docs/federation.md).
        #expect(outcome.redirect == nil)
        #expect(outcome.url.path == Routes.federationLink)
        #expect(try fed.server.environment.storage.users.federatedIdentities(userID: gina.id).isEmpty)
        #expect(try fed.server.environment.storage.users.user(id: gina.id)?.passwordHash != nil)
    }

    @Test func theHeadlessStartWithAGovernedEmailAnswersARedirectToTheConnection() async throws {
        let (fed, organizationID) = try Self.governed(user: MockUser(subject: "hank-at-acme", email: "hank@acme.test"))
        defer { fed.stop() }
        let pkce = PKCEPair.generate()
        let http = HTTPTestClient()
        func start(_ email: String?) async throws -> TestResponse {
            var body: [String: JSONValue] = [
                "responseType": .string("code"), "clientId": .string("headless"), "redirectUri": .string(Federated.headlessRedirect),
                "state": .string("app-state"), "scope": .string("openid email"), "codeChallenge": .string(pkce.challenge),
                "codeChallengeMethod": .string("S256")]
            if let email { body["email"] = .string(email) }
            return try await http.post(fed.server.url(Routes.headlessStart), json: .object(body))
        }
        // Another domain: the view with the providers, as before.
        let view = try await start("someone@example.org")
        #expect(view.status == 200)
        #expect(try view.json()["type"] == .string("view"))
        #expect(fed.mock.requestCount("/authorize") == 0)
        // The governed domain: a redirect straight to its connection.
        let started = try await start("hank@acme.test")
        #expect(started.status == 200)
        #expect(started.header("Cache-Control") == "no-store")
        let json = try started.json()
        #expect(json["type"] == .string("redirect"))
        #expect(json["connection"] == .string("corp"))
        let launch = try #require(json["redirectUrl"]?.stringValue.flatMap(URL.init(string:)))
        #expect(launch.absoluteString.hasPrefix(fed.server.issuer + Routes.federationLaunch + "?state="))
        let outcome = try await fed.browser().open(launch)
        let redirect = try outcome.requireRedirect()
        #expect(redirect.base == Federated.headlessRedirect)
        #expect(try redirect.query()["code"] != nil)
        let hank = try #require(try fed.server.environment.storage.users.user(email: "hank@acme.test"))
        #expect(try DomainTestSupport.roles(fed.server.environment, organizationID: organizationID, userID: hank.id) == ["member"])
    }

    @Test func aRequiredDomainWhoseConnectionIsOffRefusesEveryLocalWay() async throws {
        let (fed, organizationID) = try Self.governed(user: MockUser(email: "ivy@acme.test"))
        defer { fed.stop() }
        // Re-bind to a connection the configuration does not have: nowhere to send the user.
        _ = try fed.server.environment.makeDomainClaims().bind(Self.domain, organizationID: organizationID, connectionID: "gone",
                                                               policy: .ssoRequired)
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: PKCEPair.generate()))
        let refused = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "ivy@acme.test", "password": ""])
        #expect(refused.status == 403)
        #expect(refused.response.text.contains("not available right now"))
        let headless = try await HTTPTestClient().post(fed.server.url(Routes.headlessStart), json: .object([
            "responseType": .string("code"), "clientId": .string("headless"), "redirectUri": .string(Federated.headlessRedirect),
            "state": .string("s"), "scope": .string("openid"), "codeChallenge": .string(PKCEPair.generate().challenge),
            "codeChallengeMethod": .string("S256"), "email": .string("ivy@acme.test")]))
        #expect(headless.status == 403)
        #expect(try headless.json()["error"] == .string("access_denied"))
        #expect(fed.mock.requestCount("/authorize") == 0)
    }
}

/// Domain claims against the store and a real DNS server (dnsmasq) on loopback.
@Suite(.endToEndLimit)
struct DomainClaimEndToEndTests {
    @Test func aDomainClaimedTwiceIsRefusedAndNothingIsCreated() throws {
        let server = try TestServer()
        defer { server.stop() }
        let claims = server.environment.makeDomainClaims()
        let acme = try DomainTestSupport.makeOrganization(server.environment, slug: "acme")
        let rival = try DomainTestSupport.makeOrganization(server.environment, slug: "rival")
        let first = try claims.claim("Acme.Test", organizationID: acme)
        #expect(first.domain == "acme.test")
        #expect(throws: DomainClaimError.alreadyClaimed) { try claims.claim("ACME.test", organizationID: rival) }
        #expect(throws: DomainClaimError.alreadyClaimed) { try claims.claim("acme.test", organizationID: acme) }
        #expect(try claims.claims(organizationID: rival).isEmpty)
        #expect(try claims.claim(domain: "acme.test") == first)
        // An international domain is claimed as its A-label, as EmailAddress normalises it: its
        // Unicode and A-label spellings are one claim, and a malformed one is refused.
        #expect(try claims.claim("bücher.example", organizationID: rival).domain == "xn--bcher-kva.example")
        #expect(throws: DomainClaimError.alreadyClaimed) { try claims.claim("xn--bcher-kva.example", organizationID: acme) }
        #expect(throws: DomainClaimError.invalidDomain) { try claims.claim("b_cher.example", organizationID: acme) }
        // Binding needs a verified claim.
        #expect(throws: DomainClaimError.notVerified) {
            try claims.bind("acme.test", organizationID: acme, connectionID: "corp", policy: .ssoRequired)
        }
        #expect(try claims.claim(domain: "acme.test")?.connectionID == nil)
    }

    @Test(.enabled(if: RealPart.dnsmasq.canRun, RealPart.dnsmasq.skipComment))
    func theTXTRecordProvesAClaimAndAMissingRecordChangesNothing() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let acme = try DomainTestSupport.makeOrganization(server.environment, slug: "acme")
        let claims = server.environment.makeDomainClaims()
        let published = try claims.claim("acme.example.test", organizationID: acme)
        _ = try claims.claim("missing.example.test", organizationID: acme)
        let dns = try await LocalDNSServer.start(zones: ["example.test"], records: [
            (DomainProof.recordName(published.domain), DomainProof.recordValue(published.verificationToken)),
        ])
        defer { Task { await dns.stop() } }
        var settings = server.environment.configuration.domains
        settings.resolver = dns.address
        let resolver = ResolvTXTResolver(settings)
        #expect(throws: DomainClaimError.recordMissing("_signet-challenge.missing.example.test")) {
            try claims.verifyByDNS("missing.example.test", organizationID: acme, resolver: resolver)
        }
        #expect(try claims.claim(domain: "missing.example.test")?.verifiedAt == nil)
        let verified = try claims.verifyByDNS("acme.example.test", organizationID: acme, resolver: resolver)
        #expect(verified.verifiedBy == .dns)
        #expect(try claims.claim(domain: "acme.example.test")?.verifiedBy == .dns)
        let failures = try server.environment.storage.audit.recentAudit(limit: 100).filter { $0.event == "organization_domain_verification_failed" }
        #expect(failures.map(\.reason) == ["record_missing"])
    }
}

/// The organization an end-to-end test's domains belong to.
enum DomainTestSupport {
    /// Creates an organization and returns its id.
    static func makeOrganization(_ environment: ServerEnvironment, slug: String) throws -> String {
        let now = environment.clock.now
        let id = "org_" + environment.random.identifier()
        try environment.storage.organizations.insertOrganization(OrganizationRecord(id: id, slug: slug, name: slug.capitalized,
                                                                                   createdAt: now, updatedAt: now))
        return id
    }

    /// The user's roles in the organization (empty when not a member).
    static func roles(_ environment: ServerEnvironment, organizationID: String, userID: String) throws -> [String] {
        try environment.storage.organizations.membership(organizationID: organizationID, userID: userID)?.roles ?? []
    }
}
