import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct InteractiveFlowTests {
    @Test func fullFlowFromAuthorizeToTokensThenSingleSignOn() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()

        let page = try await browser.open(env.authorizeURL(pkce: pkce, extra: [("login_hint", "alice@example.com")]))
        #expect(page.status == 200)
        #expect(page.url.path == Routes.signIn)
        expectHardened(page.response)
        #expect(page.response.header("Content-Security-Policy")?.contains("form-action") == false)
        #expect(page.response.text.contains("Native &lt;b&gt;App&lt;/b&gt;"))
        let form = try #require(page.forms.first)
        #expect(form.value("email") == "alice@example.com")
        #expect(form.value("request")?.hasPrefix("sgq_") == true)
        #expect(form.value("csrf")?.isEmpty == false)
        let csrfCookie = try #require(browser.cookies["signet_csrf"])
        #expect(csrfCookie.httpOnly && csrfCookie.sameSite == "Lax" && !csrfCookie.secure)

        let outcome = try await env.submitCredentials(browser)
        #expect(outcome.status == 303)
        expectHardened(outcome.response)
        let redirect = try outcome.requireRedirect()
        #expect(redirect.base == Interactive.callback)
        let query = try redirect.query()
        #expect(query.names == ["code", "state", "iss"])
        #expect(try query.single("state") == "st-123")
        #expect(try query.single("iss") == env.server.issuer)
        let code = try query.single("code")
        #expect(code.hasPrefix("sgc_"))

        let session = try #require(Interactive.sessionCookie(browser))
        #expect(session.value.hasPrefix("sgs_"))
        #expect(session.httpOnly && session.sameSite == "Lax" && session.path == "/" && !session.secure)
        let raw = try #require(outcome.response.setCookies.first { $0.hasPrefix("signet_session=") })
        #expect(raw.contains("HttpOnly") && raw.contains("SameSite=Lax") && raw.contains("Path=/"))

        let tokens = try await env.redeem(code: code, pkce: pkce)
        #expect(tokens.status == 200, "\(tokens)")
        let json = try tokens.json().objectValue ?? [:]
        let idToken = try #require(json["id_token"]?.stringValue)
        #expect(json["refresh_token"]?.stringValue?.hasPrefix("sgr_") == true)
        let claims = try #require(try JSONValue.parse(Base64URL.decode(idToken.split(separator: ".")[1]) ?? []).objectValue)
        #expect(claims["sub"]?.stringValue == env.user.id)
        #expect(claims["nonce"]?.stringValue == "nonce-1")
        #expect(claims["amr"] == .array([.string("pwd")]))
        #expect(claims["sid"]?.stringValue?.isEmpty == false)
        #expect(claims["email"]?.stringValue == Interactive.email)

        // Second authorization from the same browser: no page, straight to the client.
        let pkce2 = PKCEPair.generate()
        let again = try await browser.open(env.authorizeURL(pkce: pkce2, state: "second"))
        #expect(again.history.count == 1)
        expectHardened(again.response)
        let second = try again.requireRedirect()
        #expect(second["state"] == "second")
        #expect(second["iss"] == env.server.issuer)
        let secondTokens = try await env.redeem(code: try #require(second["code"]), pkce: pkce2)
        #expect(secondTokens.status == 200)

        // prompt=login asks for the password again.
        let login = try await browser.open(env.authorizeURL(pkce: pkce2, extra: [("prompt", "login")]))
        #expect(login.redirect == nil)
        #expect(login.url.path == Routes.signIn)
        let reauth = try await env.submitCredentials(browser).requireRedirect()
        #expect(reauth["code"] != nil)
        #expect(Interactive.sessionCookie(browser)?.value != session.value, "a new session on every sign-in")
    }

    @Test func privateUseRedirectURIGetsTheCodeToo() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        _ = try await browser.open(env.authorizeURL(redirectURI: "com.example.native:/callback", pkce: pkce))
        let redirect = try await env.submitCredentials(browser).requireRedirect()
        #expect(redirect.base == "com.example.native:/callback")
        let code = try #require(redirect["code"])
        #expect(try await env.redeem(code: code, pkce: pkce, redirectURI: "com.example.native:/callback").status == 200)
    }

    @Test func promptNoneWithoutSessionIsLoginRequiredAtTheRedirectURI() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let response = try await HTTPTestClient().get(env.authorizeURL(pkce: .generate(), state: "s n", extra: [("prompt", "none")]))
        #expect(response.status == 303)
        expectHardened(response)
        let redirect = try #require(response.redirect)
        #expect(redirect.base == Interactive.callback)
        #expect(redirect["error"] == "login_required")
        #expect(redirect["state"] == "s n")
        #expect(redirect["iss"] == env.server.issuer)
        #expect(response.location?.contains("state=s%20n") == true)
    }

    @Test func promptNoneWithSessionGivesACodeAndForThirdPartyWithoutConsentConsentRequired() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await env.signIn(browser, pkce: .generate())
        let silent = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("prompt", "none")])).requireRedirect()
        #expect(silent["code"] != nil)
        let third = try await browser.open(env.authorizeURL(client: "web", redirectURI: "https://partner.example.com/cb", pkce: .generate(),
                                                            extra: [("prompt", "none")])).requireRedirect()
        #expect(third["error"] == "consent_required")
        #expect(third["iss"] == env.server.issuer)
    }

    @Test func maxAgeZeroForcesSignInButTheFreshSignInSatisfiesIt() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await env.signIn(browser, pkce: .generate())
        env.server.clock.advance(by: 5)
        let page = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("max_age", "0")]))
        #expect(page.url.path == Routes.signIn)
        #expect(try await env.submitCredentials(browser).requireRedirect()["code"] != nil)
    }

    @Test func aPendingRequestExpiresAfterTenMinutes() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        env.server.clock.advance(by: 11 * 60)
        let outcome = try await env.submitCredentials(browser)
        #expect(outcome.redirect == nil)
        #expect(outcome.status == 400)
        expectHardened(outcome.response)
        #expect(outcome.response.text.contains("expired"))
        #expect(Interactive.sessionCookie(browser) == nil)
    }

    @Test func aPendingRequestCannotBeUsedTwice() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        let form = try #require(browser.forms.first)
        let first = try await browser.submit(form, fields: ["email": Interactive.email, "password": Interactive.password])
        #expect(try first.requireRedirect()["code"] != nil)
        let replay = try await browser.submit(form, fields: ["email": Interactive.email, "password": Interactive.password])
        #expect(replay.redirect == nil)
        #expect(replay.status == 400)
    }

    @Test func pagesForUnknownRequestHandlesAreErrors() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let client = HTTPTestClient()
        for path in [Routes.signIn, Routes.consent] {
            let missing = try await client.get(env.server.url(path))
            #expect(missing.status == 400)
            let unknown = try await client.get(env.server.url(path, query: [("request", "sgq_" + String(repeating: "A", count: 43))]))
            #expect(unknown.status == 400)
            expectHardened(unknown)
        }
    }
}
