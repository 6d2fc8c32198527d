import Foundation
import SignetMail
@testable import SignetServer
import SignetTesting
import SignetWire
import Testing

/// The logo file route (`branding.logo_file`) and the brand in mail, over real HTTP and SMTP.
@Suite(.endToEndLimit) struct BrandAssetsEndToEndTests {
    /// The smallest PNG: the signature and an IHDR chunk are all the route looks at.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]
    static let svg = #"<?xml version="1.0"?><!-- logo --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10"/></svg>"#

    static func logoPath(_ html: String) throws -> String {
        let start = try #require(html.range(of: "<header class=\"brand\"><img src=\""))
        let rest = html[start.upperBound...]
        return String(rest[..<(try #require(rest.firstIndex(of: "\"")))])
    }

    static func signInPage(_ env: Interactive) async throws -> TestResponse {
        let browser = FormBrowser()
        let page = try await browser.open(env.authorizeURL(pkce: .generate()))
        #expect(page.status == 200)
        return page.response
    }

    @Test func aLogoFileIsServedSameOriginWithItsTypeFromItsBytesAndAYearsCache() async throws {
        let folder = try TemporaryDirectory(prefix: "logo")
        defer { folder.remove() }
        // The name says JPEG; the bytes say PNG, and the bytes win.
        let file = folder.appending("logo.jpg")
        try Data(Self.png).write(to: URL(fileURLWithPath: file))
        let env = try Interactive { $0.branding.logoFile = file }
        defer { env.stop() }
        let page = try await Self.signInPage(env)
        let path = try Self.logoPath(page.text)
        #expect(path.hasPrefix("/assets/logo-") && path.hasSuffix(".png"))
        #expect(page.header("Content-Security-Policy")
                == "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; img-src 'self'")
        let logo = try await HTTPTestClient().get(env.server.url(path))
        #expect(logo.status == 200)
        #expect(logo.body == Self.png)
        #expect(logo.header("Content-Type") == "image/png")
        #expect(logo.header("X-Content-Type-Options") == "nosniff")
        #expect(logo.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(logo.header("Content-Security-Policy") == nil)
        #expect(try await HTTPTestClient().get(env.server.url("/assets/logo-AAAAAAAAAAAA.png")).status == 404)
    }

    /// SVG is accepted and served as an image with a CSP that runs nothing in it, even opened directly.
    @Test func anSVGLogoIsServedWithItsOwnCSP() async throws {
        let folder = try TemporaryDirectory(prefix: "logo-svg")
        defer { folder.remove() }
        let file = try folder.write(Self.svg, to: "logo.svg")
        let env = try Interactive { $0.branding.logoFile = file }
        defer { env.stop() }
        let path = try Self.logoPath(try await Self.signInPage(env).text)
        #expect(path.hasSuffix(".svg"))
        let logo = try await HTTPTestClient().get(env.server.url(path))
        #expect(logo.status == 200)
        #expect(logo.header("Content-Type") == "image/svg+xml")
        #expect(logo.header("Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'")
        #expect(logo.header("X-Content-Type-Options") == "nosniff")
    }

    /// A file of another type, or too large, or missing, is refused when the server starts (and by
    /// check-config), with the setting's path; nothing is served.
    @Test func aWrongOrOversizedLogoFileIsRefusedAtStartWithAClearError() async throws {
        let folder = try TemporaryDirectory(prefix: "logo-bad")
        defer { folder.remove() }
        let gif = try folder.write("GIF89a\u{1}\u{0}\u{1}\u{0}", to: "logo.png")
        let html = try folder.write("<html><svg></svg></html>", to: "logo.svg")
        let big = folder.appending("big.png")
        try Data(Self.png + [UInt8](repeating: 0, count: LogoFile.maximumBytes)).write(to: URL(fileURLWithPath: big))
        let exact = folder.appending("exact.png")
        try Data(Self.png + [UInt8](repeating: 0, count: LogoFile.maximumBytes - Self.png.count)).write(to: URL(fileURLWithPath: exact))
        let typeMessage = "branding.logo_file: the logo must be a PNG, JPEG, WebP or SVG image (recognised by its first bytes)"
        for (file, message) in [(gif, typeMessage), (html, typeMessage), (big, "branding.logo_file: the logo is larger than 256 KiB"),
                                (folder.appending("missing.png"), "branding.logo_file: cannot read the file \(folder.appending("missing.png"))")] {
            #expect(throws: ConfigurationError.self) { try TestServer { $0.branding.logoFile = file } }
            do {
                _ = try TestServer { $0.branding.logoFile = file }
            } catch let error as ConfigurationError {
                #expect(error.description == message)
            }
            let config = try folder.write(#"{"branding": {"logo_file": "\#(file)"}}"#, to: "signet.json")
            let checked = try await SignetBinary.run(["check-config", config])
            #expect(checked.status == 78, "\(checked)")
            #expect(checked.stderr.contains(message), "\(checked.stderr)")
            let served = try await SignetBinary.run(["serve", "--config", config, "--data", folder.appending("data"), "--listen", "127.0.0.1:0"],
                                                    timeoutSeconds: 30)
            #expect(served.status == 78, "\(served)")
            #expect(served.stderr.contains(message), "\(served.stderr)")
            #expect(!served.stdout.contains("listening on"))
        }
        // Exactly the limit is accepted.
        let server = try TestServer { $0.branding.logoFile = exact }
        server.stop()
        // Both logo settings at once: choose one.
        let both = try folder.write(#"{"branding": {"logo_file": "\#(exact)", "logo_url": "https://cdn.example/logo.png"}}"#, to: "both.json")
        let checked = try await SignetBinary.run(["check-config", both])
        #expect(checked.status == 78)
        #expect(checked.stderr.contains("branding.logo_file: branding.logo_url and branding.logo_file: choose one"), "\(checked.stderr)")
    }

    @Test func theBrandingSettingsAreChecked() throws {
        func issues(_ json: String) -> [String] {
            do { _ = try SignetConfiguration(parsing: Data(json.utf8)) } catch { return error.issues.map(\.description) }
            return []
        }
        #expect(issues(##"{"branding": {"primary_color": "red"}}"##) == [##"branding.primary_color: must be a colour as #rrggbb, such as "#0a7d3b""##])
        #expect(issues(##"{"branding": {"primary_color": "#abc"}}"##).count == 1)
        #expect(issues(#"{"branding": {"support_url": "http://help.example.com"}}"#)
                == ["branding.support_url: must use https (http only on a loopback address)"])
        #expect(issues(#"{"branding": {"terms_url": "javascript:alert(1)"}}"#).count == 1)
        #expect(issues(#"{"branding": {"privacy_url": "https://x.example/p#frag"}}"#) == ["branding.privacy_url: must not have a fragment"])
        #expect(issues(#"{"branding": {"logo_url": "data:image/png;base64,AAAA"}}"#).count == 1)
        #expect(issues(#"{"branding": {"product_name": ""}}"#) == ["branding.product_name: must be 1 to 64 characters"])
        #expect(issues(#"{"branding": {"product_name": "Acme\r\nBcc: x"}}"#) == ["branding.product_name: must not contain control characters"])
        #expect(issues(##"{"branding": {"support_url": "http://127.0.0.1:9/help", "primary_color": "#0A7D3B", "product_name": "Acme Notes"}}"##).isEmpty)
        let configuration = try SignetConfiguration(parsing: Data(##"{"branding": {"primary_color": "#0A7D3B", "product_name": "Acme"}}"##.utf8))
        #expect(configuration.brand().accentColor == "#0a7d3b")
        #expect(configuration.brand().productName == "Acme")
        #expect(SignetConfiguration.defaults.brand() == .signet)
    }

    /// The account mail is rendered with the brand from the settings: the product's name as the
    /// sender's name (mail.from_name unset) and in the words, the primary colour on its button.
    @Test func mailCarriesTheProductNameAndColour() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let server = try TestServer {
            $0.mail.smtpURL = sink.url
            $0.mail.from = "id@acme.example"
            $0.branding.productName = "Acme Notes"
            $0.branding.primaryColor = "#0A7D3B"
        }
        defer { server.stop() }
        let brand = server.application.brand
        let message = AccountMail.verifyEmail(code: "123456", link: "https://id.acme.example/verify?c=1", minutes: 10)
            .message(brand: brand, words: .catalog(.en), from: try MailAddress("id@acme.example"), to: try MailAddress("ada@example.test"))
        try server.environment.mail.enqueue(to: try MailAddress("ada@example.test"), subject: message.subject, text: message.text,
                                            html: message.html)
        let received = try await sink.waitForMessages(1)
        let parsed = try received[0].parsed()
        #expect(parsed.fromName == "Acme Notes")
        #expect(parsed.subject == "Confirm your email for Acme Notes")
        #expect(parsed.text?.contains("— Acme Notes") == true)
        #expect(parsed.html?.contains("background:#0a7d3b") == true)
        #expect(parsed.html?.contains("Signet") == false)
    }
}
