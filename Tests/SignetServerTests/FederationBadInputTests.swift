import Foundation
import SignetCore
import SignetFederation
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Every misbehaviour of the provider and of the callback is refused, with nothing created.
@Suite(.endToEndLimit) struct FederationBadInputTests {
    /// A misbehaviour of the mock and the error the app must receive.
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let flavor: MockProviderFlavor
        let error: String
        let apply: @Sendable (MockProvider) -> Void
        var description: String { "\(flavor.rawValue): \(name)" }
    }

    static let cases: [Case] = [
        Case(name: "wrong iss", flavor: .google, error: "access_denied") { $0.behaviour.wrongIssuer = true },
        Case(name: "wrong aud", flavor: .google, error: "access_denied") { $0.behaviour.wrongAudience = true },
        Case(name: "expired", flavor: .google, error: "access_denied") { $0.behaviour.expiredTokens = true },
        Case(name: "bad signature", flavor: .google, error: "access_denied") { $0.behaviour.badSignature = true },
        Case(name: "unknown kid", flavor: .google, error: "access_denied") { $0.behaviour.unknownKeyID = true },
        Case(name: "missing nonce", flavor: .google, error: "access_denied") { $0.behaviour.omitNonce = true },
        Case(name: "email_verified false", flavor: .google, error: "access_denied") { $0.user.emailVerified = false },
        Case(name: "email_verified \"true\" from Google", flavor: .google, error: "access_denied") { $0.behaviour.emailVerifiedAsString = true },
        Case(name: "email_verified \"false\" from Apple", flavor: .apple, error: "access_denied") { $0.user.emailVerified = false },
        Case(name: "wrong iss", flavor: .apple, error: "access_denied") { $0.behaviour.wrongIssuer = true },
        Case(name: "malformed JSON", flavor: .google, error: "temporarily_unavailable") { $0.behaviour.malformedJSON = true },
        Case(name: "malformed JSON", flavor: .github, error: "temporarily_unavailable") { $0.behaviour.malformedJSON = true },
        Case(name: "unverified primary email", flavor: .github, error: "access_denied") { $0.user.emailVerified = false },
        Case(name: "token endpoint redirects", flavor: .google, error: "temporarily_unavailable") { $0.behaviour.redirectTokenEndpoint = true },
        Case(name: "upstream error access_denied", flavor: .google, error: "access_denied") { $0.behaviour.callbackError = "access_denied" },
        Case(name: "user cancels", flavor: .apple, error: "access_denied") { $0.behaviour.callbackError = "user_cancelled_authorize" },
        Case(name: "userinfo names another sub", flavor: .generic, error: "access_denied") {
            $0.behaviour.claimsOnlyInUserinfo = true
            $0.behaviour.userinfoSubject = "someone-else"
        },
        Case(name: "unverified email in userinfo", flavor: .generic, error: "access_denied") {
            $0.behaviour.claimsOnlyInUserinfo = true
            $0.user.emailVerified = false
        },
    ]

    @Test(arguments: cases)
    func misbehaviourIsRefusedAndNothingIsCreated(_ test: Case) async throws {
        let fed = try Federated(test.flavor, user: MockUser(email: "fresh@example.org")) { $0.allowLinking = true }
        defer { fed.stop() }
        // The discovery document is fetched (and cached) before the mock starts misbehaving.
        try await fed.warmUp()
        test.apply(fed.mock)
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        try expectAppError(outcome, test.error, server: fed.server)
        #expect(try fed.counts() == (users: 1, links: 0))
        #expect(try fed.server.environment.storage.users.user(email: "fresh@example.org") == nil)
    }

    @Test func slowAnswerBeyondTheTimeLimitIsRefused() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org")) { $0.timeoutSeconds = 1 }
        defer { fed.stop() }
        try await fed.warmUp()
        fed.mock.behaviour.delaySeconds = 2
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        try expectAppError(outcome, "temporarily_unavailable", server: fed.server)
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    @Test func rotatedKeysSucceedAfterARefetch() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org"))
        defer { fed.stop() }
        _ = try await FederationEndToEndTests.completes(fed, fed.browser())
        #expect(fed.mock.requestCount("/jwks") == 1)
        try fed.mock.rotateKeys()
        fed.server.clock.advance(by: 61)   // past the JWKS refetch interval
        _ = try await FederationEndToEndTests.completes(fed, fed.browser())
        #expect(fed.mock.requestCount("/jwks") == 2)
    }

    @Test func aReplayedStateIsRefused() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org"))
        defer { fed.stop() }
        let browser = FormBrowser()
        let callback = try await fed.callbackURL(browser, pkce: PKCEPair.generate())
        let first = try await browser.open(callback)
        #expect(try first.requireRedirect().query()["code"] != nil)
        let replay = try await browser.open(callback)
        #expect(replay.redirect == nil)
        #expect(replay.status == 400)
        #expect(replay.response.text.contains("expired or was already used"))
        expectHardened(replay.response)
    }

    @Test func aCallbackWithoutTheStartingBrowsersCookieIsRefused() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org"))
        defer { fed.stop() }
        let browser = FormBrowser()
        let callback = try await fed.callbackURL(browser, pkce: PKCEPair.generate())
        #expect(browser.cookies["signet_fed"] != nil)
        // Another browser (the attacker's) delivers the victim's callback.
        let other = try await FormBrowser().open(callback)
        #expect(other.redirect == nil)
        #expect(other.status == 403)
        // The same browser without the binding cookie is refused too.
        browser.cookies.remove(named: "signet_fed")
        let stripped = try await browser.open(callback)
        #expect(stripped.status == 403)
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    @Test func anotherConnectionsStateIsRefused() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org"), twin: "google-twin")
        defer { fed.stop() }
        let browser = FormBrowser()
        let callback = try await fed.callbackURL(browser, pkce: PKCEPair.generate())
        let swapped = try #require(URL(string: callback.absoluteString.replacingOccurrences(
            of: "/oauth2/callback/google?", with: "/oauth2/callback/google-twin?")))
        let refused = try await browser.open(swapped)
        #expect(refused.status == 400)
        #expect(refused.response.text.contains("does not belong to this provider"))
        // The real callback still works: the wrong one did not consume the transaction.
        #expect(try await browser.open(callback).requireRedirect().query()["code"] != nil)
    }

    @Test func aDisabledConnectionsCallbackIsRefused() async throws {
        let off = ConfiguredConnection(connection: Connection(id: "off", type: .oidc, clientID: "x", issuer: "https://off.example.com",
                                                              enabled: false), clientSecret: .environment("UNUSED_SECRET"))
        let fed = try Federated(.google, extra: [off])
        defer { fed.stop() }
        let response = try await HTTPTestClient().get(fed.server.url("/oauth2/callback/off", query: [("code", "c"), ("state", "sgn_x")]))
        #expect(response.status == 403)
        expectHardened(response)
        let unknown = try await HTTPTestClient().get(fed.server.url("/oauth2/callback/nope", query: [("code", "c"), ("state", "s")]))
        #expect(unknown.status == 404)
        let noState = try await HTTPTestClient().get(fed.server.url("/oauth2/callback/google", query: [("code", "c")]))
        #expect(noState.status == 400)
    }

    @Test func startingWithoutTheCSRFFieldIsRefused() async throws {
        let fed = try Federated(.google)
        defer { fed.stop() }
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: PKCEPair.generate()))
        let link = try Federated.providerLink(browser, connection: "google")
        let forged = link.replacingOccurrences(of: "csrf=", with: "csrf=x")
        let refused = try await browser.open(fed.server.url(forged))
        #expect(refused.status == 403)
        #expect(fed.mock.requestCount("/authorize") == 0)
    }
}
