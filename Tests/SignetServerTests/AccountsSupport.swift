import Foundation
import SignetClientCore
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The interactive test server with a real SMTP sink, sign-up open and email sign-in on.
struct Accounts {
    let app: Interactive
    let sink: MailSink
    var server: TestServer { app.server }

    static func start(sinkDown: Bool = false, configure: (inout SignetConfiguration) -> Void = { _ in }) async throws -> Accounts {
        let sink = try await MailSink.start()
        var url = sink.url
        if sinkDown {
            // A port nobody listens on any more: every submission fails and the mail waits.
            await sink.stop()
            url = "smtp://127.0.0.1:\(sink.port)"
        }
        let app = try Interactive { configuration in
            configuration.mail.smtpURL = url
            configuration.mail.from = "id@example.test"
            configuration.mail.fromName = "Example ID"
            configuration.branding.productName = "Example ID"
            configuration.accounts.signUp = .open
            configuration.accounts.emailSignIn = true
            configure(&configuration)
        }
        return Accounts(app: app, sink: sink)
    }

    func stop() async {
        app.stop()
        await sink.stop()
    }

    /// A fresh browser on the sign-in page of a new authorization request; returns its handle.
    func signInPage(_ browser: FormBrowser, pkce: PKCEPair) async throws -> String {
        let page = try await browser.open(app.authorizeURL(pkce: pkce))
        #expect(page.status == 200)
        return try #require(URLComponents(url: page.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
    }

    /// The `n`-th mail (1-based) the sink received, parsed.
    func mail(_ n: Int) async throws -> MailSink.Message.Parsed {
        let messages = try await sink.waitForMessages(n)
        return try messages[n - 1].parsed()
    }

    /// The 6-digit code of a mail's text, or nil when it has none.
    static func codeIfAny(in mail: MailSink.Message.Parsed) -> String? {
        mail.text?.split(separator: "\n").first { line in
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            return line.hasPrefix("    ") && trimmed.count == 6 && trimmed.allSatisfy(\.isNumber)
        }.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The 6-digit code of a mail's text.
    static func code(in mail: MailSink.Message.Parsed) throws -> String {
        try #require(codeIfAny(in: mail), "no code in: \(mail.text ?? "")")
    }

    /// The link after `label: ` in a mail's text.
    static func link(_ label: String, in mail: MailSink.Message.Parsed) throws -> URL {
        let text = try #require(mail.text)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(label + ": ") }, "no \(label) link in: \(text)")
        return try #require(URL(string: String(line.dropFirst(label.count + 2)).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The challenge id in a code page's URL.
    static func challengeID(_ outcome: BrowserOutcome) throws -> String {
        try #require(URLComponents(url: outcome.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "challenge" }?.value)
    }

    /// The ID token's claims from a token response.
    static func idTokenClaims(_ response: TestResponse) throws -> [String: JSONValue] {
        let json = try response.json()
        let idToken = try #require(json["id_token"]?.stringValue)
        return try #require(try JSONValue.parse(Base64URL.decode(String(idToken.split(separator: ".")[1])) ?? []).objectValue)
    }

    /// Signs up in `browser` from a new authorization request; returns the code page.
    func signUp(_ browser: FormBrowser, pkce: PKCEPair, email: String, password: String = "a fine new passphrase",
                name: String = "Bea") async throws -> BrowserOutcome {
        let handle = try await signInPage(browser, pkce: pkce)
        #expect(browser.page?.text.contains("href=\"/signup?request=\(handle)\"") == true, "no Create account link")
        let form = try await browser.open(server.url(Routes.signUp, query: [("request", handle)]))
        #expect(form.status == 200)
        return try await browser.submit(formWithAction: Routes.signUp, fields: ["email": email, "password": password, "name": name])
    }
}

/// A code page's text with `email`, the challenge id and the CSRF field blanked, for comparing
/// the answers to two addresses byte for byte.
func blankedCodePage(_ outcome: BrowserOutcome, _ email: String) throws -> String {
    let id = try Accounts.challengeID(outcome)
    var text = outcome.response.text.replacingOccurrences(of: email, with: "EMAIL").replacingOccurrences(of: id, with: "ID")
    if let csrf = outcome.forms.first?.controls.first(where: { $0.name == "csrf" })?.value {
        text = text.replacingOccurrences(of: csrf, with: "CSRF")
    }
    return text
}

/// Two answers carry the same header fields with the same values (the date aside).
func expectSameHeaders(_ a: TestResponse, _ b: TestResponse, ignoring: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) {
    // The length follows the address typed; the bodies are compared on their own; every response
    // has its own request id (X-Request-Id), random and the same for both kinds of address.
    let skip = Set(["date", "content-length", "x-request-id"]).union(ignoring)
    let left = a.headers.filter { !skip.contains($0.name.lowercased()) }.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
    let right = b.headers.filter { !skip.contains($0.name.lowercased()) }.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
    #expect(left == right, sourceLocation: sourceLocation)
}
