import Foundation
import SignetCore
import SignetFederation
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Every misbehaviour of the provider and of the callback is refused, with nothing created.
@Suite(.endToEndLimit) struct FederationBadInputTests {
    /// A misbehaviour of the mock, the error the app must receive and the reason the server
    /// must record in its audit log (`federation_failed:<reason>`, or the upstream error event).
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let flavor: MockProviderFlavor
        let error: String
        let audit: String
        let apply: @Sendable (MockProvider) -> Void
        var description: String { "\(flavor.rawValue): \(name)" }
        init(name: String, flavor: MockProviderFlavor, error: String, audit: String, apply: @escaping @Sendable (MockProvider) -> Void) {
            self.name = name
            self.flavor = flavor
            self.error = error
            self.audit = audit
            self.apply = apply
        }
    }

    static let badToken = "federation_failed:invalid_id_token"
    static let unverified = "federation_failed:email_not_verified"
    static let unavailable = "federation_failed:upstream_unavailable"

    static let cases: [Case] = [
        Case(name: "wrong iss", flavor: .google, error: "access_denied", audit: badToken) { $0.behaviour.wrongIssuer = true },
        Case(name: "wrong aud", flavor: .google, error: "access_denied", audit: badToken) { $0.behaviour.wrongAudience = true },
        Case(name: "expired", flavor: .google, error: "access_denied", audit: badToken) { $0.behaviour.expiredTokens = true },
        Case(name: "bad signature", flavor: .google, error: "access_denied", audit: badToken) { $0.behaviour.badSignature = true },
        Case(name: "unknown kid", flavor: .google, error: "access_denied", audit: badToken) { $0.behaviour.unknownKeyID = true },
        Case(name: "missing nonce", flavor: .google, error: "access_denied", audit: badToken) { $0.behaviour.omitNonce = true },
        Case(name: "email_verified false", flavor: .google, error: "access_denied", audit: unverified) { $0.user.emailVerified = false },
        Case(name: "email_verified \"true\" from Google", flavor: .google, error: "access_denied", audit: unverified) { $0.behaviour.emailVerifiedAsString = true },
        Case(name: "email_verified \"false\" from Apple", flavor: .apple, error: "access_denied", audit: unverified) { $0.user.emailVerified = false },
        Case(name: "wrong iss", flavor: .apple, error: "access_denied", audit: badToken) { $0.behaviour.wrongIssuer = true },
        Case(name: "malformed JSON", flavor: .google, error: "temporarily_unavailable", audit: unavailable) { $0.behaviour.malformedJSON = true },
        Case(name: "malformed JSON", flavor: .github, error: "temporarily_unavailable", audit: unavailable) { $0.behaviour.malformedJSON = true },
        Case(name: "unverified primary email", flavor: .github, error: "access_denied", audit: unverified) { $0.user.emailVerified = false },
        Case(name: "token endpoint redirects", flavor: .google, error: "temporarily_unavailable", audit: unavailable) { $0.behaviour.redirectTokenEndpoint = true },
        Case(name: "key set unavailable", flavor: .google, error: "temporarily_unavailable", audit: unavailable) { $0.behaviour.jwksUnavailable = true },
        Case(name: "upstream error access_denied", flavor: .google, error: "access_denied", audit: "federation_upstream_error") { $0.behaviour.callbackError = "access_denied" },
        Case(name: "user cancels", flavor: .apple, error: "access_denied", audit: "federation_upstream_error") { $0.behaviour.callbackError = "user_cancelled_authorize" },
        Case(name: "userinfo names another sub", flavor: .generic, error: "access_denied", audit: badToken) {
            $0.behaviour.claimsOnlyInUserinfo = true
            $0.behaviour.userinfoSubject = "someone-else"
        },
        Case(name: "unverified email in userinfo", flavor: .generic, error: "access_denied", audit: unverified) {
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
        #expect(try fed.federationAudit() == [test.audit])
        #expect(try fed.counts() == (users: 1, links: 0))
        #expect(try fed.server.environment.storage.users.user(email: "fresh@example.org") == nil)
    }

    /// RFC 9207 §2.4: when the provider advertises `authorization_response_iss_parameter_supported`,
    /// a callback without `iss`, or with another issuer's, is refused before the code is used.
    @Test(arguments: [MockProviderBehaviour.ResponseIssuer.missing, .wrong])
    func aMissingOrWrongResponseIssuerIsRefused(_ responseIssuer: MockProviderBehaviour.ResponseIssuer) async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org"))
        defer { fed.stop() }
        fed.mock.behaviour.responseIssuer = responseIssuer   // before Signet reads the discovery document
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        try expectAppError(outcome, "access_denied", server: fed.server)
        #expect(try fed.federationAudit() == ["federation_failed:wrong_response_issuer"])
        #expect(fed.mock.requestCount("/token") == 0)
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    @Test func theRightResponseIssuerSignsIn() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org"))
        defer { fed.stop() }
        fed.mock.behaviour.responseIssuer = .correct
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        #expect(try outcome.requireRedirect().query()["code"] != nil)
        #expect(try fed.federationAudit() == [])
        #expect(try fed.counts() == (users: 2, links: 1))
    }

    /// A connection's account rules, in the browser flow (native sign-in has the same cases in
    /// NativeSignInPolicyTests): Google's `hd` against `hosted_domain`, and `allowed_email_domains`
    /// only for a verified email.
    struct DomainCase: Sendable, CustomStringConvertible {
        let name: String
        let user: MockUser
        let hd: String?
        let adjust: @Sendable (inout Connection) -> Void
        var description: String { name }
    }

    static let domainCases: [DomainCase] = [
        DomainCase(name: "hosted_domain set, no hd", user: MockUser(email: "fresh@corp.example"), hd: nil) {
            $0.hostedDomain = "corp.example"
        },
        DomainCase(name: "hosted_domain set, another hd", user: MockUser(email: "fresh@corp.example"), hd: "other.example") {
            $0.hostedDomain = "corp.example"
        },
        DomainCase(name: "allowed domain, unverified email", user: MockUser(email: "fresh@corp.example", emailVerified: false), hd: nil) {
            $0.allowedEmailDomains = ["corp.example"]
        },
        DomainCase(name: "other domain, verified", user: MockUser(email: "fresh@other.example"), hd: nil) {
            $0.allowedEmailDomains = ["corp.example"]
        },
    ]

    @Test(arguments: domainCases)
    func domainRulesRefuseAndCreateNothing(_ test: DomainCase) async throws {
        let fed = try Federated(.google, user: test.user) { connection in
            connection.allowLinking = true
            test.adjust(&connection)
        }
        defer { fed.stop() }
        fed.mock.behaviour.hostedDomainClaim = test.hd
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        try expectAppError(outcome, "access_denied", server: fed.server)
        #expect(try fed.federationAudit() == ["federation_failed:domain_not_allowed"])
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    /// An unverified upstream email in an allowed domain that matches an existing account: the
    /// domain rule refuses it outright (before, it passed the domain check and led to the link page).
    @Test func anUnverifiedEmailNeverPassesTheDomainCheckEvenToTheLinkPage() async throws {
        let fed = try Federated(.google, user: MockUser(email: Interactive.email, emailVerified: false)) {
            $0.allowLinking = true
            $0.allowedEmailDomains = ["example.com"]
        }
        defer { fed.stop() }
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        try expectAppError(outcome, "access_denied", server: fed.server)
        #expect(try fed.federationAudit() == ["federation_failed:domain_not_allowed"])
        #expect(try fed.counts() == (users: 1, links: 0))
    }

    /// Apple's form_post callback (`POST /oauth2/callback/{connection}`) with malformed bodies,
    /// sent from the browser that started the flow (its binding cookie along): each is refused
    /// with its exact status and page, and none consumes the transaction, calls the provider or
    /// creates anything, so the genuine post still completes afterwards.
    @Test func malformedFormPostBodiesAreRefusedAndPersistNothing() async throws {
        let fed = try Federated(.apple, user: MockUser(email: "fresh@example.org"))
        defer { fed.stop() }
        let browser = fed.browser()
        let providerPage = try await fed.start(browser, pkce: PKCEPair.generate())
        let form = try #require(providerPage.forms.first, "the mock's form_post page")
        let state = try #require(form.value("state"))
        let code = try #require(form.value("code"))
        #expect(form.action.path == Routes.federationCallbackPrefix + "apple")
        let client = HTTPTestClient(cookies: browser.cookies)
        let formType = ["Content-Type": "application/x-www-form-urlencoded"]
        let cases: [(name: String, body: [UInt8], headers: [String: String], status: Int, page: String)] = [
            ("broken percent escape", Array("state=\(state)&code=%zz".utf8), formType, 400, "answer is malformed"),
            ("truncated percent escape", Array("state=\(state)&code=abc%4".utf8), formType, 400, "answer is malformed"),
            ("repeated state", Array("state=\(state)&state=\(state)&code=\(code)".utf8), formType, 400, "does not belong to a sign-in"),
            ("repeated code", Array("state=\(state)&code=\(code)&code=other".utf8), formType, 400, "does not belong to a sign-in"),
            ("text/plain", Array("state=\(state)&code=\(code)".utf8), ["Content-Type": "text/plain"], 400, "answer is malformed"),
            ("JSON", Array("{\"state\":\"\(state)\",\"code\":\"\(code)\"}".utf8), ["Content-Type": "application/json"], 400,
             "answer is malformed"),
            ("oversized", Array("state=\(state)&code=\(code)&pad=".utf8) + [UInt8](repeating: 0x61, count: 1024 * 1024), formType, 413,
             "too large"),
        ]
        for test in cases {
            var headers = HTTPHeaders()
            for (name, value) in test.headers { headers.set(name, value) }
            let response = try await client.send(method: "POST", url: form.action, body: test.body, headers: headers)
            #expect(response.status == test.status, "\(test.name)")
            #expect(response.text.contains(test.page), "\(test.name): \(response.text.prefix(300))")
            #expect(response.location == nil, "\(test.name)")
            #expect(response.setCookies.isEmpty, "\(test.name)")
            if test.status == 400 { expectHardened(response) }
        }
        // No Content-Type at all (URLSession would add one): raw bytes with the browser's cookies.
        let body = "state=\(state)&code=\(code)"
        let cookie = browser.cookies.headerValue(for: form.action) ?? ""
        let raw = try await RawHTTPConnection.exchange(port: fed.server.port, request:
            "POST \(form.action.path) HTTP/1.1\r\nHost: 127.0.0.1:\(fed.server.port)\r\nCookie: \(cookie)\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let untyped = try #require(raw.response, "\(raw)")
        #expect(untyped.status == 400)
        #expect(untyped.text.contains("answer is malformed"))
        #expect(untyped.header("Location") == nil)
        #expect(untyped.header("Set-Cookie") == nil)
        #expect(fed.mock.requestCount("/token") == 0)
        #expect(try fed.federationAudit() == [])
        #expect(try fed.counts() == (users: 1, links: 0))
        // The transaction is intact: the provider's genuine post signs in.
        let done = try await browser.submit(formIndex: 0)
        #expect(try done.requireRedirect().query()["code"] != nil)
        #expect(try fed.counts() == (users: 2, links: 1))
    }

    /// A discovery document obeys the rule configured URLs obey (`ProviderURLRule`): an endpoint
    /// on plaintext http off the machine (an internal address, as a compromised provider would
    /// name) fails the connection with the member and the rule as its reason, and nothing is sent
    /// anywhere: not the browser to the provider, not the client secret to the token endpoint.
    @Test(arguments: [("token_endpoint", "http://10.0.0.1/token"), ("jwks_uri", "http://169.254.169.254/keys"),
                      ("userinfo_endpoint", "http://internal.example/userinfo"), ("revocation_endpoint", "http://192.168.1.1/revoke"),
                      ("authorization_endpoint", "http://127.0.0.2.example/authorize"), ("end_session_endpoint", "ftp://op.example/logout")])
    func aDiscoveredEndpointBreakingTheURLRuleFailsTheConnection(_ member: String, _ url: String) async throws {
        let fed = try Federated(.generic, user: MockUser(email: "fresh@example.org"), adminListener: true)
        defer { fed.stop() }
        fed.mock.behaviour.discoveredEndpoints = [member: url]
        let outcome = try await fed.start(fed.browser(), pkce: PKCEPair.generate())
        #expect(outcome.redirect == nil && outcome.status == 502, "\(outcome.response)")
        #expect(fed.mock.requestCount("/.well-known/openid-configuration") == 1)
        #expect(fed.mock.requestCount("/authorize") == 0 && fed.mock.requestCount("/token") == 0)
        #expect(try fed.counts() == (users: 1, links: 0))

        let fixture = try AdminFixture(server: fed.server)
        let token = try await fixture.token(["admin:connections:read"])
        let status = try await fixture.call("GET", "/admin/v1/connections/generic", token: token).json()
        #expect(status["status"]?.stringValue == "failing")
        #expect(status["last_error"]?["reason"]?.stringValue == "upstream_unavailable")
        let message = try #require(status["last_error"]?["message"]?.stringValue)
        #expect(message.contains(member) && message.contains("must use https (http only on a loopback address)"), "\(message)")
        #expect(!message.contains(url) && !message.contains(fed.mock.clientSecret), "\(message)")

        // The document fixed, the connection works.
        fed.mock.behaviour.discoveredEndpoints = [:]
        _ = try await FederationEndToEndTests.completes(fed, fed.browser())
    }

    @Test func slowAnswerBeyondTheTimeLimitIsRefused() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org")) { $0.timeoutSeconds = 1 }
        defer { fed.stop() }
        try await fed.warmUp()
        fed.mock.behaviour.delaySeconds = 2
        let outcome = try await fed.signIn(fed.browser(), pkce: PKCEPair.generate())
        try expectAppError(outcome, "temporarily_unavailable", server: fed.server)
        #expect(try fed.federationAudit() == [Self.unavailable])
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
        #expect(try fed.federationAudit() == [])
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
        #expect(try fed.federationAudit() == ["federation_browser_mismatch", "federation_browser_mismatch"])
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
        #expect(try fed.federationAudit() == ["federation_wrong_connection"])
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
