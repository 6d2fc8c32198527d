import Foundation
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The interactive test server with Alice signed in (password) in `browser`, and helpers for the
/// passkey ceremonies over real HTTP, as the passkey script would call them.
struct PasskeyFixture {
    let env: Interactive
    /// Alice's signed-in browser.
    let browser: FormBrowser
    var server: TestServer { env.server }
    var store: any PasskeyStore { server.environment.storage.passkeys }
    var origin: String { server.issuer }
    var rpID: String { URLComponents(string: server.issuer)?.host ?? "" }

    init(configure: (inout SignetConfiguration) throws -> Void = { _ in }) async throws {
        env = try Interactive(configure: configure)
        browser = FormBrowser()
        _ = try await env.signIn(browser, pkce: PKCEPair.generate())
    }

    func stop() { env.stop() }

    /// The value of `data-NAME` in an HTML page (HTML-unescaped `&amp;` only: the values are base64url and paths).
    static func data(_ name: String, in html: String) throws -> String {
        let marker = "data-\(name)=\""
        let start = try #require(html.range(of: marker), "no data-\(name) in the page").upperBound
        let end = try #require(html[start...].firstIndex(of: "\""))
        return String(html[start..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A client that sends `browser`'s cookies.
    func client(_ browser: FormBrowser) -> HTTPTestClient { HTTPTestClient(cookies: browser.cookies) }

    /// The registration CSRF token from /account/passkeys.
    func registrationCSRF(_ browser: FormBrowser? = nil) async throws -> String {
        let page = try await client(browser ?? self.browser).get(server.url(Routes.accountPasskeys))
        #expect(page.status == 200, "\(page)")
        return try Self.data("csrf", in: page.text)
    }

    /// Registration options for the signed-in browser.
    func registrationOptions(_ browser: FormBrowser? = nil) async throws -> JSONValue {
        let csrf = try await registrationCSRF(browser)
        let response = try await client(browser ?? self.browser).post(server.url(Routes.passkeyRegisterOptions), form: [("csrf", csrf)])
        #expect(response.status == 200, "\(response)")
        return try response.json()
    }

    func postJSON(_ path: String, _ body: [UInt8], browser: FormBrowser, type: String = "application/json") async throws -> TestResponse {
        try await client(browser).send(method: "POST", url: server.url(path), body: body, headers: ["Content-Type": type])
    }

    /// Registers `authenticator` for Alice; expects success.
    @discardableResult
    func register(_ authenticator: SoftwareAuthenticator) async throws -> TestResponse {
        let options = try await registrationOptions()
        let response = try await postJSON(Routes.passkeyRegisterFinish, authenticator.register(options), browser: browser)
        #expect(response.status == 200, "\(response)")
        return response
    }

    /// A fresh browser on the sign-in page of a new request: it, and its passkey sign-in options.
    func startSignIn(pkce: PKCEPair = PKCEPair.generate()) async throws -> (browser: FormBrowser, options: JSONValue) {
        let fresh = FormBrowser()
        let page = try await fresh.open(env.authorizeURL(pkce: pkce))
        let html = page.response.text
        #expect(page.response.status == 200)
        let response = try await client(fresh).post(server.url(Routes.passkeySignInOptions),
                                                    form: [("request", try Self.data("request", in: html)), ("csrf", try Self.data("csrf", in: html))])
        #expect(response.status == 200, "\(response)")
        return (fresh, try response.json())
    }

    /// Posts an assertion from `browser`.
    func finishSignIn(_ body: [UInt8], browser: FormBrowser) async throws -> TestResponse {
        try await postJSON(Routes.passkeySignInFinish, body, browser: browser)
    }

    /// Alice's passkeys now.
    func passkeys() throws -> [PasskeyRecord] { try store.passkeys(userID: env.user.id) }
}

/// A JSON error response: its status, `error` and `error_description`, and `no-store`.
func expectPasskeyError(_ response: TestResponse, status: Int = 400, _ code: String, _ description: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
    let json = (try? response.json()) ?? .null
    #expect(json["error"]?.stringValue == code, "\(response)", sourceLocation: sourceLocation)
    #expect(json["error_description"]?.stringValue?.contains(description) == true, "\(response)", sourceLocation: sourceLocation)
    #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    #expect(response.setCookies.isEmpty, "a refused ceremony sets no cookie", sourceLocation: sourceLocation)
}
