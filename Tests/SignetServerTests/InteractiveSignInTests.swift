import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct InteractiveSignInTests {
    /// The page after a failed sign-in, and the Set-Cookie headers of the POST.

    @Test func wrongPasswordAndUnknownEmailGiveTheSamePageAndNoSession() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        let form = try #require(browser.forms.first)

        let wrong = try await browser.submit(form, fields: ["email": Interactive.email, "password": "not the password"])
        #expect(wrong.redirect == nil)
        #expect(wrong.status == 200)
        #expect(wrong.url.path == Routes.signIn)
        #expect(wrong.history.count == 2, "303 back to the form")
        expectHardened(wrong.response)
        #expect(wrong.response.text.contains("The email or password is incorrect."))
        #expect(Interactive.sessionCookie(browser) == nil)

        // The same page but for the email typed, which the form keeps.
        let unknown = try await browser.submit(form, fields: ["email": "nobody@example.com", "password": "not the password"])
        #expect(unknown.status == 200)
        #expect(unknown.response.text == wrong.response.text.replacingOccurrences(of: Interactive.email, with: "nobody@example.com"))
        #expect(Interactive.sessionCookie(browser) == nil)

        // A disabled user's right password: the same page again.
        _ = try env.server.environment.makeUserService().create(email: "off@example.com", password: "the right password")
        let off = try #require(try env.server.environment.makeUserService().find("off@example.com"))
        try env.server.environment.makeUserService().disable(userID: off.id)
        let disabled = try await browser.submit(form, fields: ["email": "off@example.com", "password": "the right password"])
        #expect(disabled.response.text == wrong.response.text.replacingOccurrences(of: Interactive.email, with: "off@example.com"))
        #expect(Interactive.sessionCookie(browser) == nil)

        // The form still works afterwards.
        #expect(try await browser.submit(form, fields: ["email": Interactive.email, "password": Interactive.password]).requireRedirect()["code"] != nil)
    }

    /// The email typed before a wrong password is in the form shown again: carried in a sealed,
    /// short-lived HttpOnly cookie bound to this sign-in request, never in a URL.
    @Test func aWrongPasswordKeepsTheTypedEmailOutOfEveryURL() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        let form = try #require(browser.forms.first)
        let typed = "Alice.\"Quoted\"+<tag>@Example.com"
        let escaped = "Alice.&quot;Quoted&quot;+&lt;tag&gt;@Example.com"
        let wrong = try await browser.submit(form, fields: ["email": typed, "password": "not the password"])
        #expect(wrong.status == 200)
        #expect(wrong.response.text.contains("name=\"email\" type=\"email\" autocomplete=\"username webauthn\" required value=\"\(escaped)\">"))
        #expect(wrong.response.text.contains("autocomplete=\"current-password\" required autofocus>"), "the password field has the focus")
        #expect(wrong.response.text.contains("The email or password is incorrect."))
        for url in wrong.history { #expect(!url.absoluteString.lowercased().contains("example.com"), "\(url)") }
        let cookie = try #require(browser.cookies["signet_email"])
        #expect(cookie.httpOnly)
        #expect(cookie.sameSite == "Strict")
        #expect(!cookie.value.lowercased().contains("alice"), "sealed, not the email")

        // Another sign-in request in the same browser is not filled with it.
        let other = try await browser.open(env.authorizeURL(pkce: .generate(), state: "another"))
        #expect(other.status == 200)
        #expect(!other.response.text.contains(escaped))
        #expect(other.response.text.contains("required autofocus value=\"\">"))

        // A successful sign-in clears it.
        let form2 = try #require(wrong.forms.first)
        _ = try await browser.submit(form2, fields: ["email": Interactive.email, "password": Interactive.password]).requireRedirect()
        #expect(browser.cookies["signet_email"] == nil)
    }

    @Test func missingOrWrongCSRFIsRefusedWithoutASession() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        let form = try #require(browser.forms.first)
        let credentials = ["email": Interactive.email, "password": Interactive.password]

        let missing = try await browser.submit(form, fields: credentials, removing: ["csrf"])
        #expect(missing.status == 403)
        expectHardened(missing.response)
        let wrong = try await browser.submit(form, fields: credentials.merging(["csrf": "AAAA"]) { $1 })
        #expect(wrong.status == 403)
        // The right field without the cookie (another site's form cannot send our cookie's pair).
        let cookieless = try await HTTPTestClient().post(form.action, form: try form.submission(overrides: credentials))
        #expect(cookieless.status == 403)
        #expect(cookieless.setCookies.isEmpty)
        #expect(Interactive.sessionCookie(browser) == nil)
        // And the pending request was not consumed: the real form still works.
        #expect(try await browser.submit(form, fields: credentials).requireRedirect()["code"] != nil)
    }

    @Test func throttlingAfterFiveFailuresRefusesEvenTheRightPassword() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        let form = try #require(browser.forms.first)
        var failurePage = ""
        for attempt in 0..<5 {
            let outcome = try await browser.submit(form, fields: ["email": Interactive.email, "password": "guess \(attempt)"])
            failurePage = outcome.response.text
        }
        let throttled = try await browser.submit(form, fields: ["email": Interactive.email, "password": Interactive.password])
        #expect(throttled.redirect == nil)
        #expect(throttled.response.text == failurePage, "the same generic message")
        #expect(Interactive.sessionCookie(browser) == nil)
        // Another account from the same address is not affected (30 per address).
        _ = try env.server.environment.makeUserService().create(email: "bob@example.com", password: "bob's password")
        let bob = try await browser.submit(form, fields: ["email": "bob@example.com", "password": "bob's password"])
        #expect(bob.redirect?["code"] != nil)
        // The window passes: Alice can sign in again.
        env.server.clock.advance(by: 16 * 60)
        let later = FormBrowser()
        _ = try await later.open(env.authorizeURL(pkce: .generate()))
        #expect(try await env.submitCredentials(later).requireRedirect()["code"] != nil)
    }

    @Test func loginHintIsEscapedInTheEmailField() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let hint = "\"><script>alert(1)</script>"
        let page = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("login_hint", hint)]))
        #expect(!page.response.text.contains("<script>"))
        #expect(page.forms.first?.value("email") == hint)
    }

    @Test func theSignInPostNeedsFormEncoding() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let response = try await HTTPTestClient().post(env.server.url(Routes.signIn), json: .object(["request": .string("x")]))
        #expect(response.status == 400)
        expectHardened(response)
    }
}

@Suite(.endToEndLimit) struct InteractiveCookieTests {
    @Test func anHTTPSIssuerGetsHostPrefixedSecureCookies() async throws {
        let env = try Interactive { $0.issuer = "https://id.example.test" }
        defer { env.stop() }
        let client = HTTPTestClient()
        let authorize = try await client.get(env.authorizeURL(pkce: .generate()))
        #expect(authorize.status == 303)
        let location = try #require(authorize.location)
        let signInURL = try #require(URL(string: location, relativeTo: env.server.baseURL)?.absoluteURL)
        let page = try await client.get(signInURL)
        let csrfCookie = try #require(page.setCookies.first)
        #expect(csrfCookie.hasPrefix("__Host-signet_csrf="))
        #expect(csrfCookie.contains("; Path=/") && csrfCookie.contains("; Secure") && csrfCookie.contains("; HttpOnly")
                && csrfCookie.contains("; SameSite=Lax") && !csrfCookie.contains("Domain"))
        let cookieValue = String(csrfCookie.split(separator: ";")[0])
        let form = try #require(HTMLForm.forms(in: page.text, pageURL: signInURL).first)
        let posted = try await client.post(form.action, form: try form.submission(overrides: [
            "email": Interactive.email, "password": Interactive.password]), headers: ["Cookie": cookieValue])
        #expect(posted.status == 303)
        let session = try #require(posted.setCookies.first { $0.hasPrefix("__Host-signet_session=sgs_") })
        #expect(session.contains("; Path=/") && session.contains("; Secure") && session.contains("; HttpOnly")
                && session.contains("; SameSite=Lax") && !session.contains("Domain"))
        #expect(posted.redirect?["iss"] == "https://id.example.test")
    }
}
