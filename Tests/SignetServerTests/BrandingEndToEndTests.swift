import Foundation
import SignetCore
import SignetHTTP
@testable import SignetServer
import SignetTesting
import SignetWire
import Testing

/// Branding over real HTTP: the title, logo, footer and colours of every page, the stylesheet and
/// logo assets, the exact CSP of each kind of page, and the language chosen by Accept-Language.
@Suite(.endToEndLimit) struct BrandingEndToEndTests {
    static let branded: @Sendable (inout SignetConfiguration) throws -> Void = {
        $0.branding.productName = "Acme <Notes>"
        $0.branding.primaryColor = "#0a7d3b"
        $0.branding.logoURL = "https://cdn.acme.example/logo.svg"
        $0.branding.supportURL = "https://acme.example/help"
        $0.branding.termsURL = "https://acme.example/terms"
        $0.branding.privacyURL = "https://acme.example/privacy"
    }

    /// The sign-in page's URL (after /authorize's 303), without following it.
    static func signInURL(_ env: Interactive) async throws -> URL {
        let first = try await HTTPTestClient().get(env.authorizeURL(pkce: .generate()))
        #expect(first.status == 303)
        let location = try #require(first.header("Location"))
        return try #require(URL(string: location, relativeTo: env.server.baseURL)?.absoluteURL)
    }

    static func stylesheetPath(_ html: String) throws -> String {
        let start = try #require(html.range(of: "<link rel=\"stylesheet\" href=\""))
        let rest = html[start.upperBound...]
        return String(rest[..<(try #require(rest.firstIndex(of: "\"")))])
    }

    @Test func aBrandedSignInPageHasTheTitleLogoFooterAndColours() async throws {
        let env = try Interactive(configure: Self.branded)
        defer { env.stop() }
        let page = try await HTTPTestClient().get(try await Self.signInURL(env))
        #expect(page.status == 200)
        let html = page.text
        #expect(html.contains("<title>Sign in · Acme &lt;Notes&gt;</title>"))
        #expect(!html.contains("Signet"), "no Signet anywhere on a branded page")
        #expect(html.contains("<header class=\"brand\"><img src=\"https://cdn.acme.example/logo.svg\" alt=\"Acme &lt;Notes&gt;\" height=\"40\"></header>"))
        #expect(html.contains("<footer><a href=\"https://acme.example/help\">Help</a> · <a href=\"https://acme.example/terms\">Terms</a> · "
                              + "<a href=\"https://acme.example/privacy\">Privacy</a></footer>"))
        #expect(!html.contains("<style"), "no inline style")
        // The one script is the same-origin passkey script (docs/passkeys.md); none inline.
        #expect(!html.contains("<script>") && html.components(separatedBy: "<script").count == 2
                && html.contains("<script src=\"/assets/passkeys-"), "no inline script")
        #expect(!html.contains("style=\""), "no style attribute")
        // The CSP: the same-origin stylesheet, the logo's origin, nothing else.
        #expect(page.header("Content-Security-Policy")
                == "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; img-src https://cdn.acme.example")
        #expect(page.header("Vary") == "Accept-Language")

        // The stylesheet: same-origin, long cache, the brand's colour and its derived variants.
        let path = try Self.stylesheetPath(html)
        #expect(path.hasPrefix("/assets/signet-") && path.hasSuffix(".css"))
        let css = try await HTTPTestClient().get(env.server.url(path))
        #expect(css.status == 200)
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(css.header("X-Content-Type-Options") == "nosniff")
        let palette = Brand(productName: "x", primaryColor: try #require(BrandColor(hex: "#0a7d3b"))).palette
        #expect(css.text.contains("background:#0a7d3b;color:\(palette.onPrimary)"))
        #expect(css.text.contains("a{color:\(palette.link)}"))
        #expect(css.text.contains("a{color:\(palette.linkDark)}"), "the dark-mode variant")
        #expect(css.text.contains("@media (prefers-color-scheme:dark)"))
        #expect(css.text.contains("@media (max-width:30rem)"), "the phone-width card")
        #expect(!css.text.contains("url("))
        // A stylesheet of another brand is not served here.
        let other = try await HTTPTestClient().get(env.server.url("/assets/signet-AAAAAAAAAAAA.css"))
        #expect(other.status == 404)
    }

    @Test func anUnbrandedPageSaysSignetAndHasNoFooter() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let page = try await HTTPTestClient().get(try await Self.signInURL(env))
        #expect(page.text.contains("<title>Sign in · Signet</title>"))
        #expect(page.text.contains("<header class=\"brand\"><span>Signet</span></header>"))
        #expect(!page.text.contains("<footer>"))
        #expect(page.text.contains("<html lang=\"en\">"))
        #expect(page.header("Content-Security-Policy") == "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        let css = try await HTTPTestClient().get(env.server.url(try Self.stylesheetPath(page.text)))
        #expect(css.text.contains("background:#2456c9;color:#ffffff"))
    }

    /// The exact CSP of each kind of page: a form that leads to a client has no form-action, every
    /// other page keeps form-action 'self'; an error page is a page; the provider logos' origins
    /// join the brand's in one img-src.
    @Test func everyKindOfPageHasItsExactCSP() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let client = HTTPTestClient()
        let signIn = try await client.get(try await Self.signInURL(env))
        #expect(signIn.header("Content-Security-Policy") == "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        let error = try await client.get(env.server.url(Routes.signIn, query: [("request", "sgq_nothing")]))
        #expect(error.status == 400)
        #expect(error.text.contains("<title>Request expired · Signet</title>"))
        #expect(error.header("Content-Security-Policy") == "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'")
        let confirm = try await client.get(env.server.url(Routes.endSession))
        #expect(confirm.status == 200)
        #expect(confirm.text.contains("<title>Sign out? · Signet</title>"))
        #expect(confirm.header("Content-Security-Policy") == "default-src 'none'; style-src 'self'; frame-ancestors 'none'")
        let badLogout = try await client.get(env.server.url(Routes.endSession, query: [("client_id", "nobody")]))
        #expect(badLogout.status == 400)
        #expect(badLogout.text.contains("<title>Cannot sign out · Signet</title>"))
        #expect(badLogout.header("Content-Security-Policy") == "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'")
        let authorizeError = try await client.get(env.server.url(Routes.authorize, query: [("client_id", "nobody")]))
        #expect(authorizeError.status == 400)
        #expect(authorizeError.header("Content-Security-Policy") == "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'")
    }

    @Test func theProviderLogosJoinTheBrandLogoInOneImgSrc() async throws {
        let fed = try Federated(.google, adjust: { $0.logoURL = "https://logos.example.net/google.svg" },
                                configure: { $0.branding.logoURL = "https://cdn.acme.example/logo.png" })
        defer { fed.stop() }
        let page = try await HTTPTestClient().get(try await Self.signInURL(fed.interactive))
        #expect(page.text.contains("<img src=\"https://logos.example.net/google.svg\""))
        #expect(page.header("Content-Security-Policy")
                == "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; img-src https://cdn.acme.example https://logos.example.net")
    }

    @Test func germanIsChosenByAcceptLanguageWithQValuesAndEnglishIsTheFallback() async throws {
        let env = try Interactive(configure: Self.branded)
        defer { env.stop() }
        let url = try await Self.signInURL(env)
        func page(_ header: String?) async throws -> TestResponse {
            try await HTTPTestClient().get(url, headers: header.map { ["Accept-Language": $0] } ?? [:])
        }
        let german = try await page("de-DE,de;q=0.9,en;q=0.5")
        #expect(german.text.contains("<html lang=\"de\">"))
        #expect(german.text.contains("<title>Anmelden · Acme &lt;Notes&gt;</title>"))
        #expect(german.text.contains("<label for=\"email\">E-Mail</label>"))
        #expect(german.text.contains("um mit <strong>Native &lt;b&gt;App&lt;/b&gt;</strong> fortzufahren"))
        #expect(german.text.contains(">Datenschutz</a></footer>"))
        #expect(german.header("Vary") == "Accept-Language")
        // q-values decide, not the order: English is preferred here.
        let weighted = try await page("de;q=0.4, en;q=0.8")
        #expect(weighted.text.contains("<html lang=\"en\">"))
        #expect(weighted.text.contains("<title>Sign in · Acme &lt;Notes&gt;</title>"))
        let preferredGerman = try await page("fr;q=1, en;q=0.2, de;q=0.7")
        #expect(preferredGerman.text.contains("<html lang=\"de\">"))
        // An unknown language, a refused German, nothing at all, or garbage: English.
        for header in ["fr-FR, ja;q=0.9", "de;q=0, *", nil, ";;;q=abc,,"] as [String?] {
            let english = try await page(header)
            #expect(english.status == 200)
            #expect(english.text.contains("<html lang=\"en\">"), "\(header ?? "no header")")
            #expect(english.text.contains("<label for=\"email\">Email</label>"))
        }
        // An error page in German.
        let gone = try await HTTPTestClient().get(env.server.url(Routes.signIn, query: [("request", "sgq_nothing")]),
                                                  headers: ["Accept-Language": "de"])
        #expect(gone.status == 400)
        #expect(gone.text.contains("<title>Anfrage abgelaufen · Acme &lt;Notes&gt;</title>"))
        #expect(gone.text.contains("Diese Anmeldeanfrage ist abgelaufen oder wurde schon verwendet."))
        #expect(gone.text.contains("<html lang=\"de\">"))
        #expect(gone.header("Vary") == "Accept-Language")
        // The sign-out confirmation in German, with the product's name.
        let logout = try await HTTPTestClient().get(env.server.url(Routes.endSession, query: [("client_id", "native")]),
                                                    headers: ["Accept-Language": "de-AT"])
        #expect(logout.status == 200)
        #expect(logout.text.contains("<title>Abmelden? · Acme &lt;Notes&gt;</title>"))
        #expect(logout.text.contains("Möchten Sie sich von Acme &lt;Notes&gt; abmelden und zu <strong>Native &lt;b&gt;App&lt;/b&gt;</strong> zurückkehren?"))
        #expect(logout.text.contains("<button type=\"submit\">Abmelden</button>"))
    }

    /// The consent page in German: the scopes in plain German words.
    @Test func theConsentPageIsInGermanToo() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "app", redirectURI: "com.example.other:/cb", pkce: .generate()))
        let consent = try await env.submitCredentials(browser)
        #expect(consent.status == 200)
        let page = try await HTTPTestClient(cookies: browser.cookies).get(consent.url, headers: ["Accept-Language": "de"])
        #expect(page.status == 200)
        #expect(page.text.contains("<title>Zugriff erlauben? · Signet</title>"))
        #expect(page.text.contains("<strong>Other App</strong> möchte:"))
        #expect(page.text.contains("<li>Ihre E-Mail-Adresse sehen</li>"))
        #expect(page.text.contains("value=\"allow\">Erlauben</button>"))
        #expect(page.text.contains("Angemeldet als alice@example.com."))
        #expect(page.header("Content-Security-Policy") == "default-src 'none'; style-src 'self'; frame-ancestors 'none'")
    }
}
