import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetTesting
import Testing

/// `POST /authorize` with a form body (OpenID Connect Core §3.1.2.1: the authorization endpoint
/// must support POST), over real HTTP: the whole sign-in, and each kind of broken form with its
/// exact answer.
@Suite(.endToEndLimit) struct InteractiveAuthorizePostTests {
    /// The parameters of `env.authorizeURL(...)`, as a form.
    static func form(_ env: Interactive, pkce: PKCEPair, extra: [(String, String?)] = []) throws -> [(String, String)] {
        try URLQuery(queryOf: env.authorizeURL(pkce: pkce, extra: extra).absoluteString).pairs.map { ($0.name, $0.value) }
    }

    /// POSTs raw bytes to /authorize over a raw socket, so nothing rewrites the body or its type.
    static func post(_ env: Interactive, body: [UInt8], contentType: String?, cookie: String? = nil) async throws -> RawHTTPResponse {
        var head = "POST \(Routes.authorize) HTTP/1.1\r\nHost: 127.0.0.1:\(env.server.port)\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if let cookie { head += "Cookie: \(cookie)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let outcome = try await RawHTTPConnection.exchange(port: env.server.port, request: Array(head.utf8) + body)
        return try #require(outcome.response, "no response: \(outcome)")
    }

    @Test func aFormPostSignsInAndIssuesACode() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let jar = CookieJar()
        let browser = FormBrowser(cookies: jar)
        let pkce = PKCEPair.generate()
        let started = try await HTTPTestClient(cookies: jar).post(env.server.url(Routes.authorize), form: try Self.form(env, pkce: pkce))
        #expect(started.status == 303, "\(started)")
        expectHardened(started)
        let location = try #require(started.location)
        #expect(location.hasPrefix(Routes.signIn + "?request="))
        let signIn = try await browser.open(try #require(URL(string: location, relativeTo: env.server.baseURL)))
        #expect(signIn.status == 200)
        let callback = try await env.submitCredentials(browser).requireRedirect()
        #expect(callback.base == Interactive.callback)
        #expect(callback["state"] == "st-123")
        #expect(callback["iss"] == env.server.issuer)
        let code = try #require(callback["code"])
        let tokens = try await env.redeem(code: code, pkce: pkce)
        #expect(tokens.status == 200, "\(tokens)")

        // Signed in now: a silent POST gets a code straight away.
        let silent = try await HTTPTestClient(cookies: jar).post(env.server.url(Routes.authorize),
                                                                 form: try Self.form(env, pkce: .generate(), extra: [("prompt", "none")]))
        #expect(silent.status == 303)
        let redirect = try #require(silent.redirect)
        #expect(redirect.base == Interactive.callback)
        #expect(redirect["code"] != nil)
        #expect(redirect["state"] == "st-123")
    }

    /// Before the client is verified: a 400 page, no redirect, nothing started.
    func expectPage(_ response: RawHTTPResponse, _ text: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 400, "\(label)", sourceLocation: sourceLocation)
        let head = response.head.lowercased()
        #expect(head.contains("content-type: text/html"), "\(label)", sourceLocation: sourceLocation)
        #expect(!head.contains("\r\nlocation:"), "\(label)", sourceLocation: sourceLocation)
        #expect(!head.contains("\r\nset-cookie:"), "\(label): nothing started", sourceLocation: sourceLocation)
        #expect(head.contains("cache-control: no-store"), "\(label)", sourceLocation: sourceLocation)
        #expect(String(decoding: response.body, as: UTF8.self).contains(text), "\(label)", sourceLocation: sourceLocation)
    }

    @Test func brokenFormsGetExactAnswers() async throws {
        let env = try Interactive { $0.http.maxBodyBytes = 4096 }
        defer { env.stop() }
        let form = "application/x-www-form-urlencoded"
        let valid = FormEncoding.encode(try Self.form(env, pkce: .generate()))

        // Broken percent-encoding.
        expectPage(try await Self.post(env, body: Array((valid + "&nonce=%zz").utf8), contentType: form),
                   "The request body is not valid form encoding.", "broken %")
        expectPage(try await Self.post(env, body: Array((valid + "&nonce=%4").utf8), contentType: form),
                   "The request body is not valid form encoding.", "truncated %")
        // The wrong content type, even with a well-formed body; and none at all.
        for type in ["text/plain", "application/json", "multipart/form-data; boundary=x"] {
            expectPage(try await Self.post(env, body: Array(valid.utf8), contentType: type),
                       "The body must be application/x-www-form-urlencoded.", type)
        }
        expectPage(try await Self.post(env, body: Array(valid.utf8), contentType: nil),
                   "The body must be application/x-www-form-urlencoded.", "no content type")
        // A repeated client_id: refused before the client is looked up.
        expectPage(try await Self.post(env, body: Array((valid + "&client_id=web").utf8), contentType: form),
                   "The client_id parameter is repeated.", "repeated client_id")

        // A repeated parameter after the client is verified goes back to the client.
        let repeated = try await Self.post(env, body: Array((valid + "&scope=openid").utf8), contentType: form)
        #expect(repeated.status == 303)
        let location = try #require(repeated.header("Location"))
        let target = RedirectTarget(location)
        #expect(target.base == Interactive.callback)
        #expect(target["error"] == "invalid_request")
        #expect(target["error_description"] == "The scope parameter is repeated.")
        #expect(target["state"] == "st-123")
        #expect(target["iss"] == env.server.issuer)
        #expect(target["code"] == nil)

        // Over the body limit: 413 before the body is read.
        let padded = valid + "&pad=" + String(repeating: "a", count: 5000)
        let tooLarge = try await Self.post(env, body: Array(padded.utf8), contentType: form)
        #expect(tooLarge.status == 413)
        #expect(String(decoding: tooLarge.body, as: UTF8.self) == "Request body too large\n")
        #expect(!tooLarge.head.lowercased().contains("\r\nset-cookie:"))
        #expect(!tooLarge.head.lowercased().contains("\r\nlocation:"))
    }
}
