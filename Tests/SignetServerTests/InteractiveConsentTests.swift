import Foundation
import SignetCore
import SignetServer
import SignetStore
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct InteractiveConsentTests {
    static let web = "https://partner.example.com/cb"
    static let app = "com.example.other:/cb"

    @Test func thirdPartyConsentDenyThenAllowThenRemembered() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "web", redirectURI: Self.web, pkce: .generate()))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.redirect == nil)
        #expect(consent.url.path == Routes.consent)
        expectHardened(consent.response)
        #expect(consent.response.header("Content-Security-Policy")?.contains("form-action") == false)
        let text = consent.response.text
        #expect(text.contains("Web Partner"))
        #expect(text.contains("See your email address"))
        #expect(text.contains("Stay signed in"))
        #expect(text.contains(Interactive.email))

        let denied = try await browser.submit(formWithAction: Routes.consent, fields: ["decision": "deny"]).requireRedirect()
        #expect(denied.base == Self.web)
        #expect(denied["error"] == "access_denied")
        #expect(denied["state"] == "st-123")
        #expect(denied["iss"] == env.server.issuer)
        #expect(denied["code"] == nil)

        // Signed in now: the next request goes straight to the consent page.
        let pkce = PKCEPair.generate()
        let again = try await browser.open(env.authorizeURL(client: "web", redirectURI: Self.web, pkce: pkce))
        #expect(again.url.path == Routes.consent)
        let allowed = try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()
        let code = try #require(allowed["code"])
        #expect(try await env.redeem(code: code, pkce: pkce, client: "web", redirectURI: Self.web).status == 200)

        // Remembered: no page the third time.
        let third = try await browser.open(env.authorizeURL(client: "web", redirectURI: Self.web, pkce: .generate()))
        #expect(try third.requireRedirect()["code"] != nil)
    }

    @Test func privateUseSchemeThirdPartyIsAskedEveryTime() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "app", redirectURI: Self.app, pkce: .generate()))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.url.path == Routes.consent)
        #expect(consent.response.header("Content-Security-Policy")?.contains("form-action") == false)
        #expect(try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()["code"] != nil)
        let again = try await browser.open(env.authorizeURL(client: "app", redirectURI: Self.app, pkce: .generate()))
        #expect(again.redirect == nil)
        #expect(again.url.path == Routes.consent)
    }

    /// RFC 8252 §8.6: any local process can listen on loopback, so a third-party public client
    /// with a loopback redirect URI cannot be identified; its consent is never remembered, and a
    /// silent request is consent_required even after the user allowed it once.
    @Test func loopbackThirdPartyPublicClientIsAskedEveryTime() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let now = env.server.clock.now
        let storage = env.server.environment.storage
        try storage.clients.upsertClient(ClientRecord(
            id: "cli", name: "Some CLI", isPublic: true, redirectURIs: [Interactive.loopback],
            allowedScopes: ["openid", "profile"], grantTypes: ["authorization_code"], tokenEndpointAuthMethod: "none",
            createdAt: now, updatedAt: now))
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "cli", pkce: .generate(), extra: [("scope", "openid")]))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.url.path == Routes.consent)
        #expect(try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()["code"] != nil)
        #expect(try storage.consents.consent(userID: env.user.id, clientID: "cli") == nil)

        let silent = try await browser.open(env.authorizeURL(client: "cli", pkce: .generate(),
                                                             extra: [("scope", "openid"), ("prompt", "none")])).requireRedirect()
        #expect(silent.base == Interactive.callback)
        #expect(silent["error"] == "consent_required")
        #expect(silent["state"] == "st-123")
        #expect(silent["iss"] == env.server.issuer)
        #expect(silent["code"] == nil)
        let again = try await browser.open(env.authorizeURL(client: "cli", pkce: .generate(), extra: [("scope", "openid")]))
        #expect(again.redirect == nil)
        #expect(again.url.path == Routes.consent)
    }

    @Test func consentPostNeedsCSRFAndASession() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "web", redirectURI: Self.web, pkce: .generate()))
        _ = try await env.submitCredentials(browser)
        let form = try #require(browser.forms.first { $0.action.path == Routes.consent })
        let forged = try await browser.submit(form, fields: ["csrf": "forged"], pressing: "decision")
        #expect(forged.status == 403)
        let noDecision = try await browser.submit(form, fields: ["decision": "maybe"])
        #expect(noDecision.status == 400)
        // Without the session cookie, the consent step sends the user to sign in.
        let session = try #require(Interactive.sessionCookie(browser))
        browser.cookies.remove(named: "signet_session")
        let signedOut = try await browser.submit(form, pressing: "decision")
        #expect(signedOut.url.path == Routes.signIn)
        browser.cookies.set(session)
        #expect(try await browser.submit(form, pressing: "decision").requireRedirect()["code"] != nil)
    }

    @Test func promptConsentShowsThePageForAFirstPartyClient() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await env.signIn(browser, pkce: .generate())
        let page = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("prompt", "consent")]))
        #expect(page.url.path == Routes.consent)
    }
}
