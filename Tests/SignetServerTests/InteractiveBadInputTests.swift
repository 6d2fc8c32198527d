import Foundation
import SignetCore
import SignetServer
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct InteractiveBadInputTests {
    static let script = "<script>alert(1)</script>"

    func expectErrorPage(_ response: TestResponse, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 400, "\(label)", sourceLocation: sourceLocation)
        #expect(response.location == nil, "\(label)", sourceLocation: sourceLocation)
        #expect(response.mediaType == "text/html", "\(label)", sourceLocation: sourceLocation)
        #expect(!response.text.contains("<script>"), "\(label)", sourceLocation: sourceLocation)
        #expect(response.setCookies.isEmpty, "\(label): nothing started", sourceLocation: sourceLocation)
        expectHardened(response, sourceLocation: sourceLocation)
    }

    @Test func errorsBeforeTheRedirectURIIsVerifiedArePagesNeverRedirects() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let client = HTTPTestClient()
        let pkce = PKCEPair.generate()
        let webVariants = [
            "https://partner.example.com/cb/", "https://PARTNER.example.com/cb", "https://partner.example.com/CB",
            "https://partner.example.com/cb?x=1", "https://partner.example.com@evil.example/cb",
            "https://evil.example@partner.example.com/cb", "https://evil.example/cb", "https://partner.example.com:8443/cb",
            "https://partner.example.com/cb#frag", "https://partner.example.com/%63b", "https://partner.example.com/cb%2F",
            "http://partner.example.com/cb", "https://partner.example.com.evil.example/cb", Self.script, "",
        ]
        for variant in webVariants {
            let url = env.authorizeURL(client: "web", redirectURI: variant, pkce: pkce)
            expectErrorPage(try await client.get(url), variant)
        }
        let loopbackVariants = [
            "http://localhost:49152/callback", "http://127.0.0.1:49152/callback/", "http://127.0.0.2/callback",
            "https://127.0.0.1/callback", "http://127.0.0.1:49152/callback?x=1", "http://127.0.0.1:49152/Callback",
            "http://[::1]:49152/callback", "http://127.0.0.1:0/callback", "http://user@127.0.0.1:49152/callback",
        ]
        for variant in loopbackVariants {
            expectErrorPage(try await client.get(env.authorizeURL(redirectURI: variant, pkce: pkce)), variant)
        }
        // Unknown client, missing client, missing redirect_uri, script in client_id.
        expectErrorPage(try await client.get(env.authorizeURL(client: "nobody", pkce: pkce)), "unknown client")
        expectErrorPage(try await client.get(env.authorizeURL(client: Self.script, pkce: pkce)), "script client")
        expectErrorPage(try await client.get(env.authorizeURL(pkce: pkce, extra: [("client_id", nil)])), "no client")
        expectErrorPage(try await client.get(env.authorizeURL(pkce: pkce, extra: [("redirect_uri", nil)])), "no redirect")
        // A repeated client_id is refused before anything else.
        let repeated = env.server.url(Routes.authorize + "?client_id=native&client_id=web&redirect_uri=" + Interactive.callback)
        expectErrorPage(try await client.get(repeated), "repeated client_id")
        // POST /authorize with a non-form body.
        let json = try await client.post(env.server.url(Routes.authorize), json: .object(["client_id": .string("native")]))
        expectErrorPage(json, "json body")
    }

    @Test func errorsAfterVerificationGoToTheClientEncoded() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let client = HTTPTestClient()
        let pkce = PKCEPair.generate()
        let cases: [([(String, String?)], String)] = [
            ([("scope", Self.script)], "invalid_scope"),
            ([("code_challenge", nil), ("code_challenge_method", nil)], "invalid_request"),
            ([("code_challenge_method", "plain")], "invalid_request"),
            ([("response_type", "token")], "unsupported_response_type"),
            ([("prompt", "none login")], "invalid_request"),
        ]
        for (extra, error) in cases {
            let response = try await client.get(env.authorizeURL(pkce: pkce, state: Self.script, extra: extra))
            #expect(response.status == 303, "\(extra)")
            expectHardened(response)
            let location = try #require(response.location)
            #expect(location.hasPrefix(Interactive.callback + "?"))
            #expect(!location.contains("<") && !location.contains(">") && !location.contains(" "), "\(location)")
            #expect(location.contains("state=%3Cscript%3Ealert%281%29%3C%2Fscript%3E"))
            let redirect = try #require(response.redirect)
            #expect(redirect["error"] == error, "\(extra)")
            #expect(redirect["state"] == Self.script)
            #expect(redirect["iss"] == env.server.issuer)
        }
    }

    @Test func scriptPayloadsNeverAppearUnescapedInAnyPage() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let url = env.authorizeURL(client: "web", redirectURI: "https://partner.example.com/cb", pkce: pkce, state: Self.script,
                                   extra: [("nonce", Self.script), ("login_hint", Self.script)])
        let signIn = try await browser.open(url)
        #expect(signIn.status == 200)
        #expect(!signIn.response.text.contains("<script>"))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.url.path == Routes.consent)
        #expect(!consent.response.text.contains("<script>"))
        let done = try await browser.submit(formWithAction: Routes.consent, pressing: "decision")
        let location = try #require(done.response.location)
        #expect(!location.contains("<"))
        #expect(try done.requireRedirect()["state"] == Self.script)
        // The nonce comes back exactly, inside the ID token only.
        let code = try #require(done.redirect?["code"])
        let tokens = try await env.redeem(code: code, pkce: pkce, client: "web", redirectURI: "https://partner.example.com/cb")
        #expect(tokens.status == 200)
        // Error pages with script payloads in every place.
        for path in [Routes.signIn, Routes.consent] {
            let page = try await HTTPTestClient().get(env.server.url(path, query: [("request", Self.script), ("error", Self.script)]))
            #expect(page.status == 400)
            #expect(!page.text.contains("<script>"))
        }
        let logout = try await HTTPTestClient().get(env.server.url(Routes.endSession, query: [
            ("client_id", "native"), ("post_logout_redirect_uri", Interactive.postLogout), ("state", Self.script)]))
        #expect(logout.status == 200)
        #expect(!logout.text.contains("<script>"))
        #expect(logout.text.contains("&lt;script&gt;"))
    }
}
