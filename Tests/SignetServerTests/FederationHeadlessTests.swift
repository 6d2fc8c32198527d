import Foundation
import Synchronization
import SignetCore
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// The headless JSON API, the home-realm discovery, and a slow provider.
@Suite(.endToEndLimit) struct FederationHeadlessTests {
    static func startBody(client: String = "headless", redirect: String = Federated.headlessRedirect, pkce: PKCEPair) -> JSONValue {
        .object(["responseType": .string("code"), "clientId": .string(client), "redirectUri": .string(redirect),
                 "state": .string("app-state"), "scope": .string("openid profile email offline_access"),
                 "codeChallenge": .string(pkce.challenge), "codeChallengeMethod": .string("S256")])
    }

    @Test func happyPathToCodeAndTokens() async throws {
        let fed = try Federated(.google, user: MockUser(email: "headless@example.org"))
        defer { fed.stop() }
        let pkce = PKCEPair.generate()
        let client = HTTPTestClient()
        let started = try await client.post(fed.server.url(Routes.headlessStart), json: Self.startBody(pkce: pkce))
        #expect(started.status == 200)
        #expect(started.header("Cache-Control") == "no-store")
        let body = try started.json()
        let requestID = try #require(body["requestId"]?.stringValue)
        #expect(body["expiresIn"] == .int(600))
        #expect(body["providers"] == .array([.object(["id": .string("google"), "type": .string("google"), "displayName": .string("Google")])]))
        let provider = try await client.post(fed.server.url(Routes.headlessProviderStart),
                                             json: .object(["requestId": .string(requestID), "connection": .string("google")]))
        #expect(provider.status == 200)
        let url = try #require(try provider.json()["authorizationUrl"]?.stringValue.flatMap(URL.init(string:)))
        // Signet's launch URL, which binds the browser that opens it, then sends it on.
        #expect(url.absoluteString.hasPrefix(fed.server.issuer + Routes.federationLaunch + "?state=sgn_"))
        #expect(fed.mock.requestCount("/authorize") == 0)
        // The system browser: no Signet cookie at all yet.
        let browser = fed.browser()
        let outcome = try await browser.open(url)
        #expect(fed.mock.requestCount("/authorize") == 1)
        #expect(browser.cookies["signet_fed"] != nil)
        let redirect = try outcome.requireRedirect()
        #expect(redirect.base == Federated.headlessRedirect)
        let query = try redirect.query()
        #expect(query["state"] == "app-state")
        #expect(query["iss"] == fed.server.issuer)
        let token = try await fed.interactive.redeem(code: try query.single("code"), pkce: pkce, client: "headless",
                                                     redirectURI: Federated.headlessRedirect)
        #expect(token.status == 200)
        #expect(try token.json()["refresh_token"] != nil)
        // The request id is spent.
        let again = try await client.post(fed.server.url(Routes.headlessProviderStart),
                                          json: .object(["requestId": .string(requestID), "connection": .string("google")]))
        #expect(again.status == 400)
    }

    /// Login CSRF through the headless API: the attacker starts a headless flow with the public
    /// first-party client, completes the provider leg as themself in their own cookie jar, and
    /// has the victim's browser open the callback URL. Nothing may happen in the victim's browser.
    /// Two attacker accounts: their own verified address (login CSRF: a session as the attacker)
    /// and the victim's address unverified (a forced link through the link page).
    @Test(arguments: [("attacker@example.org", true), (Interactive.email, false)])
    func aHeadlessCallbackOpenedInAnotherBrowserSignsNobodyIn(_ attackerEmail: String, _ verified: Bool) async throws {
        let fed = try Federated(.google, user: MockUser(subject: "attacker", email: attackerEmail, emailVerified: verified))
        defer { fed.stop() }
        let url = try await fed.headlessAuthorizationURL(pkce: PKCEPair.generate())
        let attacker = HTTPTestClient(cookies: CookieJar())
        let launched = try await attacker.get(url)
        #expect(launched.status == 302)
        #expect(launched.header("Cache-Control") == "no-store")
        #expect(launched.setCookies.contains { $0.hasPrefix("signet_fed=") })
        let toProvider = try #require(launched.location.flatMap(URL.init(string:)))
        #expect(toProvider.absoluteString.hasPrefix(fed.mock.url("/authorize").absoluteString + "?"))
        let approved = try await attacker.get(toProvider)
        let callback = try #require(approved.location.flatMap(URL.init(string:)))
        #expect(callback.path == Routes.federationCallbackPrefix + "google")

        let victimJar = CookieJar()
        let victim = HTTPTestClient(cookies: victimJar)
        let refused = try await victim.get(callback)
        #expect(refused.status == 403)
        #expect(refused.location == nil)
        #expect(refused.setCookies.isEmpty, "\(refused.setCookies)")
        #expect(refused.text.contains("started in another browser"))
        #expect(victimJar.all.isEmpty)
        #expect(fed.mock.requestCount("/token") == 0)
        #expect(try fed.federationAudit() == ["federation_browser_mismatch"])
        #expect(try fed.counts() == (users: 1, links: 0))
        // Later, a silent request for a first-party client in the victim's browser: no session.
        let silent = try await victim.get(fed.interactive.authorizeURL(pkce: PKCEPair.generate(), extra: [("prompt", "none")]))
        let redirect = try #require(silent.redirect)
        #expect(redirect.base == Interactive.callback)
        let query = try redirect.query()
        #expect(query["error"] == "login_required")
        #expect(query["code"] == nil)
        // The launch link is single use: opened again (the victim's browser), it binds nothing.
        let again = try await victim.get(url)
        #expect(again.status == 400)
        #expect(again.location == nil)
        #expect(again.setCookies.isEmpty)
    }

    @Test func aLaunchLinkBindsOnlyTheFirstBrowserAndBadLinksArePages() async throws {
        let fed = try Federated(.google, user: MockUser(email: "first@example.org"))
        defer { fed.stop() }
        let url = try await fed.headlessAuthorizationURL(pkce: PKCEPair.generate())
        // Eight browsers open the same link at once: exactly one is bound and sent on.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await HTTPTestClient(cookies: CookieJar()).get(url).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.sorted() == [302] + Array(repeating: 400, count: 7))
        let second = HTTPTestClient(cookies: CookieJar())
        let replay = try await second.get(url)
        #expect(replay.status == 400)
        #expect(replay.text.contains("expired or was already used"))
        for query in ["", "?state=nope", "?state=sgn_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&state=x"] {
            let bad = try await second.get(try #require(URL(string: fed.server.issuer + Routes.federationLaunch + query)))
            #expect(bad.status == 400, "\(query)")
            #expect(bad.setCookies.isEmpty)
        }
        #expect(fed.mock.requestCount("/authorize") == 0)
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    @Test func clientsWithoutHeadlessAreUnauthorized() async throws {
        let fed = try Federated(.google)
        defer { fed.stop() }
        let response = try await HTTPTestClient().post(fed.server.url(Routes.headlessStart),
                                                       json: Self.startBody(client: "native", redirect: Interactive.callback, pkce: .generate()))
        #expect(response.status == 400)
        #expect(try response.json()["error"] == .string("unauthorized_client"))
        #expect(response.location == nil)
    }

    @Test func badRequestsAreJSONErrorsNeverRedirects() async throws {
        let fed = try Federated(.google)
        defer { fed.stop() }
        let client = HTTPTestClient()
        var noPKCE = Self.startBody(pkce: .generate()).objectValue ?? [:]
        noPKCE["codeChallenge"] = nil
        let missing = try await client.post(fed.server.url(Routes.headlessStart), json: .object(noPKCE))
        #expect(missing.status == 400)
        #expect(missing.location == nil)
        #expect(try missing.json()["error"] == .string("invalid_request"))
        let unknownRedirect = try await client.post(fed.server.url(Routes.headlessStart),
                                                    json: Self.startBody(redirect: "com.example.evil:/cb", pkce: .generate()))
        #expect(unknownRedirect.status == 400)
        #expect(try unknownRedirect.json()["error"] == .string("invalid_request"))
        let notJSON = try await client.send(method: "POST", url: fed.server.url(Routes.headlessStart), body: Array("[1]".utf8),
                                            headers: ["Content-Type": "application/json"])
        #expect(notJSON.status == 400)
    }

    @Test func expiredRequestsAndBadConnectionsAreRefused() async throws {
        let fed = try Federated(.google)
        defer { fed.stop() }
        let client = HTTPTestClient()
        let started = try await client.post(fed.server.url(Routes.headlessStart), json: Self.startBody(pkce: .generate()))
        let requestID = try #require(try started.json()["requestId"]?.stringValue)
        let unknownConnection = try await client.post(fed.server.url(Routes.headlessProviderStart),
                                                      json: .object(["requestId": .string(requestID), "connection": .string("nope")]))
        #expect(unknownConnection.status == 400)
        #expect(try unknownConnection.json()["error"] == .string("invalid_request"))
        fed.server.clock.advance(by: 601)
        let expired = try await client.post(fed.server.url(Routes.headlessProviderStart),
                                            json: .object(["requestId": .string(requestID), "connection": .string("google")]))
        #expect(expired.status == 400)
        #expect(try expired.json()["error"] == .string("invalid_request"))
        #expect(fed.mock.requestCount("/authorize") == 0)
    }

    @Test func homeRealmDiscoverySendsAMappedDomainToItsProvider() async throws {
        let fed = try Federated(.generic, id: "corp", user: MockUser(email: "bob@corp.example")) { $0.homeRealmDomains = ["corp.example"] }
        defer { fed.stop() }
        let pkce = PKCEPair.generate()
        let browser = fed.browser()
        _ = try await browser.open(fed.interactive.authorizeURL(pkce: pkce))
        let outcome = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "Bob@Corp.Example", "password": ""])
        let query = try outcome.requireRedirect().query()
        #expect(query["code"] != nil)
        #expect(fed.mock.requestCount("/authorize") == 1)
        #expect(try fed.server.environment.storage.users.user(email: "bob@corp.example") != nil)
        // Other domains still sign in with their password.
        let local = fed.browser()
        _ = try await local.open(fed.interactive.authorizeURL(pkce: pkce))
        #expect(try await fed.interactive.submitCredentials(local).requireRedirect().query()["code"] != nil)
        #expect(fed.mock.requestCount("/authorize") == 1)
    }

    @Test func aSlowProviderDoesNotBlockOtherRequests() async throws {
        // One HTTP thread: if the callback held it while waiting for the provider, nothing else
        // could be answered until it finished. The mock holds the token request until released,
        // so "while the callback waits" is an observable state, not a guess about time.
        // The longest call limit, so the held call outlasts the 50 requests even on a loaded machine.
        let fed = try Federated(.google, user: MockUser(email: "slow@example.org")) { $0.timeoutSeconds = 60 } configure: {
            $0.http.threads = 1
        }
        defer { fed.stop() }
        try await fed.warmUp()
        fed.mock.behaviour.holdRequests = true
        let events = EventLog()
        let flow = Task {
            let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
            events.append("federated")
            return outcome
        }
        // Wait (bounded) until the callback is waiting on the provider's token endpoint.
        let held = await Polling.wait(seconds: 30) { fed.mock.inFlightCount("/token") == 1 }
        #expect(held, "the callback never reached the provider's token endpoint")
        guard held else { flow.cancel(); return }
        let client = HTTPTestClient()
        for index in 0..<50 {
            let response = index % 2 == 0
                ? try await client.get(fed.server.url(Routes.health))
                : try await client.post(fed.server.url(Routes.token), form: [("grant_type", "refresh_token"), ("refresh_token", "x"),
                                                                            ("client_id", "native")])
            #expect(response.status == (index % 2 == 0 ? 200 : 400))
            events.append("other")
        }
        // All 50 were answered while the token request was still held.
        #expect(fed.mock.inFlightCount("/token") == 1)
        #expect(events.entries.count == 50)
        fed.mock.release()
        let outcome = try await flow.value
        #expect(try outcome.requireRedirect().query()["code"] != nil)
        let log = events.entries
        #expect(log.count == 51)
        #expect(log.last == "federated")
        #expect(log.dropLast().allSatisfy { $0 == "other" })
    }
}

/// An ordered, thread-safe list of events.
final class EventLog: Sendable {
    private let storage = Synchronization.Mutex<[String]>([])
    func append(_ event: String) { storage.withLock { $0.append(event) } }
    var entries: [String] { storage.withLock { $0 } }
}
