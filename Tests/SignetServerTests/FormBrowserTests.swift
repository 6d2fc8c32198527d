import Foundation
import SignetHTTP
import SignetTesting
import Testing

/// FormBrowser and HTTPTestClient against a small site on SignetHTTP that behaves like a sign-in
/// flow: a redirect that sets a cookie, a login form, a consent form, and an app redirect.
@Suite(.endToEndLimit) struct FormBrowserTests {
    final class Site: Sendable {
        let server: HTTPServer
        let port: Int
        init() throws {
            let router = Router()
            router.get("/start", .sync { _ in
                var response = HTTPResponse.redirect(to: "/login", status: 302)
                response.setCookie(SetCookie(name: "flow", value: "f1", path: "/"))
                return response
            })
            router.get("/login", .sync { request in
                guard request.cookies["flow"] == "f1" else { return .text("no flow cookie", status: 400) }
                return .html("""
                    <form method="post" action="/login"><input type="hidden" name="csrf" value="t&amp;1">
                    <input name="username"><input type="password" name="password">
                    <button name="action" value="login">Sign in</button><button name="action" value="cancel">No</button></form>
                    """)
            })
            router.post("/login", .sync { request in
                guard let form = try? request.form(), form.first("csrf") == "t&1", form.first("username") == "alice",
                      form.first("password") == "pw", form.first("action") == "login",
                      request.headers["Origin"] != nil, request.cookies["flow"] == "f1" else {
                    return .text("bad login", status: 400)
                }
                var response = HTTPResponse.redirect(to: "/consent")
                response.setCookie(SetCookie(name: "session", value: "s1", path: "/", httpOnly: true))
                response.setCookie(SetCookie.deleting("flow"))
                return response
            })
            router.get("/consent", .sync { request in
                guard request.cookies["session"] == "s1", request.cookies["flow"] == nil else { return .text("no session", status: 401) }
                return .html(#"<form action="/approve"><input type="hidden" name="grant" value="g 1"><input type="submit" name="ok" value="Allow"></form>"#)
            })
            router.get("/approve", .sync { request in
                guard request.query.first("grant") == "g 1", request.query.first("ok") == "Allow" else { return .text("bad", status: 400) }
                return .redirect(to: "com.example.app:/cb?code=c%2B1&state=st")
            })
            router.get("/loopback", .sync { _ in .redirect(to: "http://127.0.0.1:1/callback?code=x&state=y", status: 302) })
            router.get("/hop/{n}", .sync { request in
                .redirect(to: "/hop/\((Int(request.pathParameters["n"] ?? "0") ?? 0) + 1)", status: 302)
            })
            router.post("/keep", .sync { request in .redirect(to: "/echo-method", status: 307) })
            router.post("/echo-method", .sync { request in .text("POST \(request.body.count)") })
            server = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:0")], threadCount: 1,
                                                                     logLibraryErrors: false), router: router)
            try server.start()
            port = server.boundPorts.first ?? 0
        }

        func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
        deinit { server.stop() }
    }

    @Test func walksASignInFlowAndStopsAtTheAppRedirect() async throws {
        let site = try Site()
        let browser = FormBrowser()
        let login = try await browser.open(site.url("/start"))
        #expect(login.status == 200, "\(login.response)")
        #expect(login.history.map(\.path) == ["/start", "/login"])
        #expect(login.redirect == nil)
        #expect(browser.cookies["flow"]?.value == "f1")

        let consent = try await browser.submit(fields: ["username": "alice", "password": "pw"], pressing: "action")
        #expect(consent.status == 200, "\(consent.response)")
        #expect(consent.url.path == "/consent")
        #expect(browser.cookies["flow"] == nil)          // Max-Age=0 deleted it
        #expect(browser.cookies["session"]?.httpOnly == true)

        let done = try await browser.submit(formWithAction: "/approve", pressing: "ok")
        let redirect = try done.requireRedirect()
        #expect(done.status == 303)
        #expect(redirect.base == "com.example.app:/cb")
        #expect(try redirect.query().single("code") == "c+1")
        #expect(redirect["state"] == "st")
    }

    @Test func stopsAtALoopbackRedirectOnAnotherPort() async throws {
        let site = try Site()
        let outcome = try await FormBrowser().open(site.url("/loopback"))
        let redirect = try outcome.requireRedirect()
        #expect(redirect.base == "http://127.0.0.1:1/callback")
        #expect(redirect["code"] == "x")
    }

    @Test func limitsRedirectsAndKeepsTheMethodOn307() async throws {
        let site = try Site()
        await #expect(throws: TestingError.self) { try await FormBrowser(maxRedirects: 3).open(site.url("/hop/0")) }
        let client = HTTPTestClient(cookies: CookieJar())
        let kept = try await client.post(site.url("/keep"), form: [("a", "b")])
        #expect(kept.status == 307)   // the client itself never follows
        #expect(kept.location == "/echo-method")
    }

    @Test func clientNeverFollowsRedirectsAndKeepsEverySetCookie() async throws {
        let site = try Site()
        let plain = HTTPTestClient()
        let start = try await plain.get(site.url("/start"))
        #expect(start.status == 302)
        #expect(start.location == "/login")
        #expect(plain.cookies == nil)
        // Without a jar no cookie is sent back.
        #expect(try await plain.get(site.url("/login")).status == 400)

        let jar = CookieJar()
        jar.store(setCookie: "flow=f1; Path=/", from: site.url("/"))
        let client = HTTPTestClient(cookies: jar)
        let login = try await client.post(site.url("/login"), form: [("csrf", "t&1"), ("username", "alice"), ("password", "pw"), ("action", "login")],
                                          headers: ["Origin": "http://127.0.0.1:\(site.port)"])
        #expect(login.status == 303, "\(login)")
        #expect(login.setCookies.count == 2)
        #expect(jar["session"]?.value == "s1")
        #expect(jar["flow"] == nil)
        let app = try await client.get(site.url("/approve?grant=g+1&ok=Allow"))
        #expect(app.location == "com.example.app:/cb?code=c%2B1&state=st")   // raw, never resolved against the host
    }
}
