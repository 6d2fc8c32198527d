import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetFederation
import SignetServer
import SignetStore
import SignetTesting
import SignetWire
import Testing

/// app → Signet → MockProvider → Signet → app, over real HTTP, for each provider style.
@Suite(.endToEndLimit) struct FederationEndToEndTests {
    /// Runs the dance and redeems the code; returns the token response's `sub` via userinfo-free
    /// means (the stored code's user) by reading the ID token's subject.
    static func completes(_ fed: Federated, _ browser: FormBrowser) async throws -> String {
        let pkce = PKCEPair.generate()
        let outcome = try await fed.signIn(browser, pkce: pkce)
        let claims = try await fed.redeem(outcome, pkce: pkce)
        #expect(claims["amr"] == .array([.string("fed")]))
        return try #require(claims["sub"]?.stringValue)
    }

    @Test(arguments: [MockProviderFlavor.google, .apple, .github, .generic])
    func freshSignUpThenReturningSignIn(_ flavor: MockProviderFlavor) async throws {
        let fed = try Federated(flavor, user: MockUser(email: "newcomer@example.org", name: "Nia Newcomer"))
        defer { fed.stop() }
        let first = try await Self.completes(fed, fed.browser())
        let user = try #require(try fed.server.environment.storage.users.user(id: first))
        #expect(user.email == "newcomer@example.org")
        #expect(user.passwordHash == nil)
        #expect(user.name == "Nia Newcomer")
        let links = try fed.server.environment.storage.users.federatedIdentities(userID: first)
        #expect(links.count == 1)
        #expect(links.first?.connectionID == fed.connectionID)
        // A returning sign-in (same sub) in a fresh browser signs in as the same user.
        let second = try await Self.completes(fed, fed.browser())
        #expect(second == first)
        #expect(try fed.counts() == (users: 2, links: 1))
    }

    @Test(arguments: [MockProviderFlavor.google, .apple, .github])
    func linkingByVerifiedEmailWhenAllowed(_ flavor: MockProviderFlavor) async throws {
        let fed = try Federated(flavor, user: MockUser(email: Interactive.email)) { $0.allowLinking = true }
        defer { fed.stop() }
        let subject = try await Self.completes(fed, fed.browser())
        #expect(subject == fed.interactive.user.id)
        #expect(try fed.counts() == (users: 1, links: 1))
    }

    @Test func appleStringEmailVerifiedAndPrivateRelayEmailAreKept() async throws {
        let relay = "x7kq2@privaterelay.appleid.com"
        let fed = try Federated(.apple, user: MockUser(email: relay, name: "Ada Apple"))
        defer { fed.stop() }
        let subject = try await Self.completes(fed, fed.browser())
        let user = try #require(try fed.server.environment.storage.users.user(id: subject))
        #expect(user.email == relay)
        #expect(user.name == "Ada Apple")
    }

    @Test func allowedEmailDomainsRefuseOtherDomains() async throws {
        let fed = try Federated(.google, user: MockUser(email: "eve@elsewhere.net")) { $0.allowedEmailDomains = ["example.org"] }
        defer { fed.stop() }
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        try expectAppError(outcome, "access_denied", server: fed.server)
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    /// Without configuration, a generic provider's token endpoint is authenticated the way its
    /// discovery document offers (the mock then accepts nothing else).
    @Test(arguments: ["client_secret_post", "client_secret_basic"])
    func tokenEndpointAuthenticationFollowsDiscovery(_ method: String) async throws {
        let fed = try Federated(.generic, user: MockUser(email: "newcomer@example.org"))
        defer { fed.stop() }
        fed.mock.behaviour.tokenEndpointAuthMethods = [method]
        _ = try await Self.completes(fed, fed.browser())
        // A configured method wins: the provider refuses it, the app gets access_denied.
        let other: ClientAuthenticationMethod = method == "client_secret_post" ? .clientSecretBasic : .clientSecretPost
        let pinned = try Federated(.generic) { $0.configuredAuthenticationMethod = other }
        defer { pinned.stop() }
        pinned.mock.behaviour.tokenEndpointAuthMethods = [method]
        try expectAppError(try await pinned.signIn(pinned.browser(), pkce: PKCEPair.generate()), "access_denied", server: pinned.server)
    }

    @Test func aProviderOfferingNoSecretMethodIsAServerError() async throws {
        let fed = try Federated(.generic)
        defer { fed.stop() }
        fed.mock.behaviour.tokenEndpointAuthMethods = ["private_key_jwt"]
        try expectAppError(try await fed.signIn(fed.browser(), pkce: PKCEPair.generate()), "server_error", server: fed.server)
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    /// OpenID Connect Core §5.4: the email and profile claims may come from userinfo only.
    @Test func claimsMissingFromTheIDTokenComeFromUserinfo() async throws {
        let fed = try Federated(.generic, user: MockUser(email: "una@example.org", name: "Una Userinfo"))
        defer { fed.stop() }
        fed.mock.behaviour.claimsOnlyInUserinfo = true
        let subject = try await Self.completes(fed, fed.browser())
        let user = try #require(try fed.server.environment.storage.users.user(id: subject))
        #expect(user.email == "una@example.org")
        #expect(user.name == "Una Userinfo")
        #expect(fed.mock.requestCount("/userinfo") == 1)
        // An ID token that carries the email needs no userinfo call.
        fed.mock.behaviour.claimsOnlyInUserinfo = false
        #expect(try await Self.completes(fed, fed.browser()) == subject)
        #expect(fed.mock.requestCount("/userinfo") == 1)
    }

    @Test func theSignInPageShowsTheEnabledProvidersOnly() async throws {
        let other = ConfiguredConnection(connection: Connection(id: "off", type: .oidc, clientID: "x", displayName: "Switched Off",
                                                                issuer: "https://off.example.com", enabled: false),
                                         clientSecret: .environment("UNUSED_SECRET"))
        let fed = try Federated(.google, extra: [other])
        defer { fed.stop() }
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: PKCEPair.generate()))
        let text = browser.page?.text ?? ""
        #expect(text.contains("Sign in with Google"))
        #expect(!text.contains("Switched Off"))
        _ = try Federated.providerLink(browser, connection: "google")
    }
}
