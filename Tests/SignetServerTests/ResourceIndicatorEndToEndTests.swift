import Foundation
import SignetCore
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// RFC 8707 resource indicators over real HTTP: the grant keeps its resource across refreshes,
/// a refresh narrows and never widens, a client gets only the resources it is registered for,
/// and the consent page names the resource.
@Suite(.endToEndLimit) struct ResourceIndicatorEndToEndTests {
    static let api = "https://api.example"
    static let files = "https://files.example"
    static let partner = "https://partner.example.com/cb"

    /// The interactive server plus `partner`: a third-party public client allowed two APIs.
    static func environment() throws -> Interactive {
        let env = try Interactive()
        let now = env.server.clock.now
        try env.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "partner", name: "Partner", isPublic: true, redirectURIs: [partner],
            allowedScopes: ["openid", "profile", "email", "offline_access"], grantTypes: ["authorization_code", "refresh_token"],
            tokenEndpointAuthMethod: "none", allowedResources: [api, files], createdAt: now, updatedAt: now))
        return env
    }

    /// Signs in as the partner with `resource=api`, allows on the consent page, redeems the code.
    static func tokens(_ env: Interactive, browser: FormBrowser = FormBrowser()) async throws -> (JSONValue, String) {
        let pkce = PKCEPair.generate()
        _ = try await browser.open(env.authorizeURL(client: "partner", redirectURI: partner, pkce: pkce, extra: [("resource", api)]))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.url.path == Routes.consent)
        let code = try #require(try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()["code"])
        let response = try await env.redeem(code: code, pkce: pkce, client: "partner", redirectURI: partner)
        #expect(response.status == 200, "\(response)")
        let json = try response.json()
        return (json, try #require(json["refresh_token"]?.stringValue))
    }

    static func refresh(_ env: Interactive, _ token: String, _ extra: [(String, String)] = []) async throws -> TestResponse {
        try await HTTPTestClient().post(env.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "partner")] + extra)
    }

    /// The access token's `aud`, as a list (RFC 7519 §4.1.3: one audience may be a string).
    static func audience(_ response: JSONValue) throws -> [String] {
        switch try NativeSignInFixture.claims(try #require(response["access_token"]?.stringValue))["aud"] {
        case .string(let one)?: return [one]
        case .array(let many)?: return many.compactMap(\.stringValue)
        default: return []
        }
    }

    @Test func theConsentPageNamesTheResourceAndRefreshesKeepTheAudience() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "partner", redirectURI: Self.partner, pkce: .generate(),
                                                    extra: [("resource", Self.api)]))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.url.path == Routes.consent)
        #expect(consent.response.text.contains("<code class=\"resource\">https://api.example</code>"))

        let (first, refreshToken) = try await Self.tokens(env)
        #expect(try Self.audience(first) == ["https://api.example"])
        let refreshed = try await Self.refresh(env, refreshToken)
        #expect(refreshed.status == 200, "\(refreshed)")
        let json = try refreshed.json()
        #expect(try Self.audience(json) == ["https://api.example"])
        // And again, from the rotated token.
        let next = try await Self.refresh(env, try #require(json["refresh_token"]?.stringValue))
        #expect(next.status == 200)
        #expect(try Self.audience(try next.json()) == ["https://api.example"])
    }

    @Test func aRefreshNarrowsToAGrantedResourceAndNeverWidens() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let (_, refreshToken) = try await Self.tokens(env)
        // files is allowed for the client but was not granted: widening (RFC 8707 §2).
        let widened = try await Self.refresh(env, refreshToken, [("resource", Self.files)])
        #expect(widened.status == 400)
        #expect(try widened.json()["error"] == "invalid_target")
        #expect(widened.header("Cache-Control") == "no-store")
        // Refused before rotating: past the grace window the same token still works (a rotated
        // token would now be reuse, and revoke the family).
        env.server.clock.advance(by: TimeInterval(env.server.environment.policy.refreshGrace + 1))
        let narrowed = try await Self.refresh(env, refreshToken, [("resource", Self.api)])
        #expect(narrowed.status == 200, "\(narrowed)")
        #expect(try Self.audience(try narrowed.json()) == ["https://api.example"])
    }

    /// RFC 8707 §2: `resource` repeated names several APIs; the token carries them all, a refresh
    /// narrows to some of them, and a later refresh without the parameter gets them all again.
    @Test func severalResourcesNarrowOnRefreshAndComeBack() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "partner", redirectURI: Self.partner, pkce: pkce,
                                                    extra: [("resource", Self.api)]).appending(queryItems: [URLQueryItem(name: "resource", value: Self.files)]))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.url.path == Routes.consent)
        #expect(consent.response.text.contains("<li><code class=\"resource\">https://api.example</code></li>"))
        #expect(consent.response.text.contains("<li><code class=\"resource\">https://files.example</code></li>"))
        let code = try #require(try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()["code"])
        let first = try await env.redeem(code: code, pkce: pkce, client: "partner", redirectURI: Self.partner)
        #expect(first.status == 200, "\(first)")
        #expect(try Self.audience(try first.json()) == [Self.api, Self.files])
        let token = try #require(try first.json()["refresh_token"]?.stringValue)

        let narrowed = try await Self.refresh(env, token, [("resource", Self.files)])
        #expect(narrowed.status == 200, "\(narrowed)")
        #expect(try Self.audience(try narrowed.json()) == [Self.files])
        let next = try #require(try narrowed.json()["refresh_token"]?.stringValue)
        let mixed = try await Self.refresh(env, next, [("resource", Self.api), ("resource", "https://other.example")])
        #expect(mixed.status == 400)
        #expect(try mixed.json()["error"] == "invalid_target")
        let whole = try await Self.refresh(env, next)
        #expect(whole.status == 200, "\(whole)")
        #expect(try Self.audience(try whole.json()) == [Self.api, Self.files])
    }

    /// The code exchange may narrow too (RFC 8707 §2.2); the family keeps every granted resource.
    @Test func theCodeExchangeNarrowsButTheGrantKeepsBoth() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        var url = env.authorizeURL(client: "partner", redirectURI: Self.partner, pkce: pkce)
        url.append(queryItems: [URLQueryItem(name: "resource", value: Self.api), URLQueryItem(name: "resource", value: Self.files)])
        _ = try await browser.open(url)
        _ = try await env.submitCredentials(browser)
        let code = try #require(try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()["code"])
        let response = try await HTTPTestClient().post(env.server.url(Routes.token), form: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.partner), ("client_id", "partner"),
            ("code_verifier", pkce.verifier), ("resource", Self.api)])
        #expect(response.status == 200, "\(response)")
        #expect(try Self.audience(try response.json()) == [Self.api])
        let refreshed = try await Self.refresh(env, try #require(try response.json()["refresh_token"]?.stringValue))
        #expect(try Self.audience(try refreshed.json()) == [Self.api, Self.files])
        // More than eight values (repeats count) is refused before anything else.
        let flood = try await Self.refresh(env, try #require(try refreshed.json()["refresh_token"]?.stringValue),
                                           Array(repeating: ("resource", Self.api), count: 9))
        #expect(flood.status == 400)
        #expect(try flood.json()["error"] == "invalid_target")
    }

    @Test func tooManyResourcesAreInvalidTarget() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        var url = env.authorizeURL(client: "partner", redirectURI: Self.partner, pkce: .generate())
        // Nine distinct values, every one well formed: more than ResourceIndicator.maximumCount.
        url.append(queryItems: (0..<9).map { URLQueryItem(name: "resource", value: "https://api\($0).example") })
        let response = try await HTTPTestClient().get(url)
        #expect(response.status == 303)
        let target = try #require(response.redirect)
        #expect(target.base == Self.partner)
        #expect(target["error"] == "invalid_target")
    }

    @Test func aGrantWithoutResourceCannotGainOneOnRefresh() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "partner", redirectURI: Self.partner, pkce: pkce))
        let consent = try await env.submitCredentials(browser)
        #expect(!consent.response.text.contains("class=\"resource\""))
        let code = try #require(try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()["code"])
        let json = try await env.redeem(code: code, pkce: pkce, client: "partner", redirectURI: Self.partner).json()
        #expect(try Self.audience(json) == [env.server.issuer])
        let widened = try await Self.refresh(env, try #require(json["refresh_token"]?.stringValue), [("resource", Self.api)])
        #expect(widened.status == 400)
        #expect(try widened.json()["error"] == "invalid_target")
    }

    @Test func aResourceTheClientMayNotUseIsInvalidTargetAtAuthorize() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        // `native` lists no resource: by default a client may name none.
        for (client, redirect, resource) in [("native", Interactive.callback, Self.api),
                                             ("partner", Self.partner, "https://other.example")] {
            let response = try await HTTPTestClient().get(env.authorizeURL(client: client, redirectURI: redirect, pkce: .generate(),
                                                                           extra: [("resource", resource)]))
            #expect(response.status == 303)
            let target = try #require(response.redirect)
            #expect(target.base == redirect)
            #expect(target["error"] == "invalid_target")
            #expect(target["state"] == "st-123")
            #expect(target["iss"] == env.server.issuer)
            #expect(target["code"] == nil)
        }
    }

    @Test func aResourceRemovedFromTheClientIsRefusedAtRefresh() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let (_, refreshToken) = try await Self.tokens(env)
        let storage = env.server.environment.storage
        var record = try #require(try storage.clients.client(id: "partner"))
        record.allowedResources = [Self.files]
        try storage.clients.upsertClient(record)
        // The node's client cache follows the store's generation within a second: wait (bounded)
        // until it serves the changed record.
        let registry = env.server.application.authorizationServer.clients
        let deadline = Date().addingTimeInterval(10)
        while try registry.client(id: "partner")?.allowedResources != [Self.files], Date() < deadline {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(try registry.client(id: "partner")?.allowedResources == [Self.files])
        let refused = try await Self.refresh(env, refreshToken, [("resource", Self.api)])
        #expect(refused.status == 400)
        #expect(try refused.json()["error"] == "invalid_target")
        // Without the parameter the API is dropped from the audience, not kept.
        let plain = try await Self.refresh(env, refreshToken)
        #expect(plain.status == 200)
        #expect(try Self.audience(try plain.json()) == [env.server.issuer])
    }

    @Test func clientCredentialsGetOnlyAllowedResources() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let core = env.server.application.authorizationServer
        let registration = ClientRegistration(server: core)
        let secret = try #require(try registration.register(ClientSpec(
            id: "svc", isPublic: false, scope: "reports.read", grantTypes: ["client_credentials"],
            authenticationMethod: "client_secret_post", allowedResources: [Self.api])).secret)
        func token(_ resource: String) async throws -> TestResponse {
            try await HTTPTestClient().post(env.server.url(Routes.token), form: [
                ("grant_type", "client_credentials"), ("client_id", "svc"), ("client_secret", secret), ("resource", resource)])
        }
        let allowed = try await token(Self.api)
        #expect(allowed.status == 200)
        #expect(try Self.audience(try allowed.json()) == ["https://api.example"])
        let refused = try await token(Self.files)
        #expect(refused.status == 400)
        #expect(try refused.json()["error"] == "invalid_target")
        #expect(refused.header("Cache-Control") == "no-store")
    }
}
