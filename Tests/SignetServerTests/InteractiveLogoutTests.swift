import Foundation
import SignetCore
import SignetServer
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct InteractiveLogoutTests {
    /// Signs in with a fresh browser and returns the browser and an ID token.
    func signedIn(_ env: Interactive) async throws -> (FormBrowser, String) {
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let redirect = try await env.signIn(browser, pkce: pkce)
        let tokens = try await env.redeem(code: try #require(redirect["code"]), pkce: pkce)
        let idToken = try #require(try tokens.json().objectValue?["id_token"]?.stringValue)
        return (browser, idToken)
    }

    func expectSignedOut(_ env: Interactive, _ browser: FormBrowser, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(Interactive.sessionCookie(browser) == nil, sourceLocation: sourceLocation)
        let page = try await browser.open(env.authorizeURL(pkce: .generate()))
        #expect(page.url.path == Routes.signIn, sourceLocation: sourceLocation)
    }

    @Test func logoutWithHintEndsTheSessionAndRedirectsWithState() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let (browser, idToken) = try await signedIn(env)
        let session = try #require(Interactive.sessionCookie(browser))
        let outcome = try await browser.open(env.server.url(Routes.endSession, query: [
            ("id_token_hint", idToken), ("post_logout_redirect_uri", Interactive.postLogout), ("state", "bye 1")]))
        #expect(outcome.status == 303)
        expectHardened(outcome.response)
        let redirect = try outcome.requireRedirect()
        #expect(redirect.base == Interactive.postLogout)
        #expect(redirect["state"] == "bye 1")
        let cleared = try #require(outcome.response.setCookies.first { $0.hasPrefix("signet_session=") })
        #expect(cleared.contains("Max-Age=0"))
        try await expectSignedOut(env, browser)
        // The old cookie value no longer works either.
        let replay = FormBrowser()
        replay.cookies.set(session)
        let page = try await replay.open(env.authorizeURL(pkce: .generate(), extra: [("prompt", "none")]))
        #expect(try page.requireRedirect()["error"] == "login_required")
    }

    @Test func anExpiredHintStillWorksAndWithoutRedirectShowsASignedOutPage() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let (browser, idToken) = try await signedIn(env)
        env.server.clock.advance(by: 2 * 3600)   // past the ID token's 1 h lifetime; the session is still valid
        let outcome = try await browser.open(env.server.url(Routes.endSession, query: [("id_token_hint", idToken)]))
        #expect(outcome.status == 200)
        expectHardened(outcome.response)
        #expect(outcome.response.text.contains("signed out"))
        try await expectSignedOut(env, browser)
    }

    @Test func unregisteredPostLogoutRedirectIsAnErrorPageNeverARedirect() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let (browser, idToken) = try await signedIn(env)
        for target in ["https://evil.example/out", Interactive.postLogout + "/", Interactive.postLogout + "?x=1", "com.example.native:/logged-Out"] {
            let response = try await HTTPTestClient(cookies: browser.cookies).get(env.server.url(Routes.endSession, query: [
                ("id_token_hint", idToken), ("post_logout_redirect_uri", target), ("state", "s")]))
            #expect(response.status == 400, "\(target)")
            #expect(response.location == nil)
            expectHardened(response)
        }
        // A hint that is not Signet's own token, and a hint for another client.
        let forged = try await HTTPTestClient().get(env.server.url(Routes.endSession, query: [("id_token_hint", "eyJhbGciOiJub25lIn0.e30.")]))
        #expect(forged.status == 400)
        let otherClient = try await HTTPTestClient().get(env.server.url(Routes.endSession, query: [("id_token_hint", idToken), ("client_id", "web")]))
        #expect(otherClient.status == 400)
        // Still signed in.
        #expect(try await browser.open(env.authorizeURL(pkce: .generate())).requireRedirect()["code"] != nil)
    }

    @Test func withoutHintTheUserConfirmsFirst() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        let page = try await browser.open(env.server.url(Routes.endSession, query: [
            ("client_id", "native"), ("post_logout_redirect_uri", Interactive.postLogout), ("state", "s-9")]))
        #expect(page.status == 200)
        #expect(page.redirect == nil)
        expectHardened(page.response)
        #expect(page.response.header("Content-Security-Policy")?.contains("form-action") == false)
        #expect(Interactive.sessionCookie(browser) != nil, "nothing ended before confirming")
        let form = try #require(page.forms.first { $0.action.path == Routes.endSession })
        // A forged confirmation is refused and the session survives.
        let forged = try await browser.submit(form, fields: ["csrf": "forged"])
        #expect(forged.status == 403)
        #expect(try await HTTPTestClient(cookies: browser.cookies).get(env.authorizeURL(pkce: .generate())).redirect?["code"] != nil)
        // The real confirmation.
        let confirmed = try await browser.submit(form)
        let redirect = try confirmed.requireRedirect()
        #expect(redirect.base == Interactive.postLogout)
        #expect(redirect["state"] == "s-9")
        try await expectSignedOut(env, browser)
    }

    @Test func confirmationWithoutAnyClientShowsTheSignedOutPage() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        let page = try await browser.open(env.server.url(Routes.endSession))
        #expect(page.status == 200)
        let done = try await browser.submit(formWithAction: Routes.endSession)
        #expect(done.status == 200)
        #expect(done.response.text.contains("signed out"))
        try await expectSignedOut(env, browser)
    }
}
