import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetTesting
import Testing

/// Who the client is behind a reverse proxy, and the sign-in limits keyed by it, over real HTTP.
/// Every test's connections come from 127.0.0.1; `http.trusted_proxies` makes that peer a proxy.
@Suite(.endToEndLimit) struct TrustedProxyEndToEndTests {
    /// A sign-in form of a fresh browser, posted with chosen headers.
    struct SignInForm {
        let env: Interactive
        let browser = FormBrowser()
        let form: HTMLForm

        init(_ env: Interactive) async throws {
            self.env = env
            _ = try await browser.open(env.authorizeURL(pkce: .generate()))
            form = try #require(browser.forms.first)
        }

        /// Posts the credentials; true when the answer is the redirect to the app with a code,
        /// false when it is the redirect back to the form with the one failure message.
        func attempt(email: String = Interactive.email, password: String, headers: [(String, String)] = [],
                     sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
            var fields: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded",
                                       "Origin": "http://127.0.0.1:\(env.server.port)"]
            for (name, value) in headers { fields.add(name, value) }
            let submission = try form.submission(overrides: ["email": email, "password": password])
            let response = try await HTTPTestClient(cookies: browser.cookies).post(form.action, form: submission, headers: fields)
            #expect(response.status == 303, "\(response)", sourceLocation: sourceLocation)
            let location = response.location ?? ""
            if location.hasPrefix(Interactive.callback) && location.contains("code=") { return true }
            #expect(location.hasPrefix(Routes.signIn) && location.contains("error=1"), "\(location)", sourceLocation: sourceLocation)
            return false
        }
    }

    static func events(_ env: Interactive, _ name: String) throws -> Int {
        try env.server.environment.storage.audit.recentAudit(limit: 10_000).filter { $0.event == name }.count
    }

    static func trustingLoopback(_ configuration: inout SignetConfiguration) {
        configuration.http.trustedProxies = ["127.0.0.1"]
    }

    /// Without `trusted_proxies`, forged `X-Forwarded-For` and `Forwarded` headers change
    /// nothing: 30 failures "from" 30 addresses are 30 failures from 127.0.0.1, which is then
    /// refused even with the right password.
    @Test func forgedForwardingHeadersFromAnUntrustedPeerChangeNothing() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let form = try await SignInForm(env)
        for index in 0..<30 {
            let forged = [("X-Forwarded-For", "198.51.100.\(index)"), ("Forwarded", "for=198.51.100.\(index)")]
            #expect(try await !form.attempt(email: "user\(index)@example.com", password: "guess", headers: forged))
        }
        #expect(try await !SignInForm(env).attempt(password: Interactive.password, headers: [("X-Forwarded-For", "203.0.113.1")]))
        #expect(try Self.events(env, "sign_in_failed") == 30)
        #expect(try Self.events(env, "sign_in_throttled") == 1)
        #expect(try Self.events(env, "sign_in") == 0)
    }

    /// Behind a trusted proxy, the address the proxy appended is the client: 30 failures from one
    /// client refuse that client only. The entry the client forged at the left is never read.
    @Test func fromATrustedProxyTheLimitIsPerClientAddress() async throws {
        let env = try Interactive(configure: Self.trustingLoopback)
        defer { env.stop() }
        let form = try await SignInForm(env)
        for index in 0..<30 {
            let chain = [("X-Forwarded-For", "192.0.2.\(index), 198.51.100.7")]
            #expect(try await !form.attempt(email: "user\(index)@example.com", password: "guess", headers: chain))
        }
        #expect(try await !SignInForm(env).attempt(password: Interactive.password, headers: [("X-Forwarded-For", "198.51.100.7")]))
        #expect(try Self.events(env, "sign_in_throttled") == 1)
        // Another client behind the same proxy is not affected, nor is the same user.
        #expect(try await SignInForm(env).attempt(password: Interactive.password, headers: [("X-Forwarded-For", "198.51.100.8")]))
        // RFC 7239 Forwarded is read the same way (and wins over X-Forwarded-For).
        #expect(try await !SignInForm(env).attempt(password: Interactive.password,
                                                    headers: [("Forwarded", "for=198.51.100.7"), ("X-Forwarded-For", "198.51.100.9")]))
        #expect(try await SignInForm(env).attempt(password: Interactive.password,
                                                   headers: [("Forwarded", "for=\"[2001:db8::7]:4711\"")]))
    }

    /// IPv6 clients are counted by /64: failures spread over one /64 add up; the next /64 is
    /// another client.
    @Test func ipv6ClientsAreCountedByTheirSlash64() async throws {
        let env = try Interactive(configure: Self.trustingLoopback)
        defer { env.stop() }
        let form = try await SignInForm(env)
        for index in 0..<30 {
            let hop = [("X-Forwarded-For", "2001:db8:1:2::\(String(index + 1, radix: 16))")]
            #expect(try await !form.attempt(email: "user\(index)@example.com", password: "guess", headers: hop))
        }
        #expect(try await !SignInForm(env).attempt(password: Interactive.password, headers: [("X-Forwarded-For", "2001:db8:1:2:ffff::9")]))
        #expect(try await SignInForm(env).attempt(password: Interactive.password, headers: [("X-Forwarded-For", "2001:db8:1:3::1")]))
    }

    /// A guesser who fails five times for an account is refused for it; the owner, from another
    /// address, still signs in (before, anyone's five failures locked the owner out).
    @Test func guessesForAnAccountDoNotLockItsOwnerOut() async throws {
        let env = try Interactive(configure: Self.trustingLoopback)
        defer { env.stop() }
        let guesser = [("X-Forwarded-For", "203.0.113.66")]
        let form = try await SignInForm(env)
        for attempt in 0..<5 { #expect(try await !form.attempt(password: "guess \(attempt)", headers: guesser)) }
        #expect(try await !SignInForm(env).attempt(password: Interactive.password, headers: guesser))
        #expect(try await SignInForm(env).attempt(password: Interactive.password, headers: [("X-Forwarded-For", "192.0.2.10")]))
        #expect(try Self.events(env, "sign_in_failed") == 5)
        #expect(try Self.events(env, "sign_in") == 1)
    }

    /// Check and count are atomic: 40 wrong passwords posted at once reach the password check
    /// exactly 5 times (the limit); the other 35 are refused unchecked.
    @Test func concurrentWrongAttemptsGetOnlyTheAllowedPasswordChecks() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let form = try await SignInForm(env)
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<40 { group.addTask { try await form.attempt(password: "wrong \(attempt)") } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.count == 40)
        #expect(!outcomes.contains(true))
        #expect(try Self.events(env, "sign_in_failed") == 5)
        #expect(try Self.events(env, "sign_in_throttled") == 35)
    }

    /// `http.per_address_connection_limit`: with 3 connections open from 127.0.0.1, a fourth is
    /// closed at once; when one of the three ends, a new one is served.
    @Test func theConnectionBeyondThePerAddressLimitIsRefused() throws {
        let server = try TestServer { $0.http.perAddressConnectionLimit = 3 }
        defer { server.stop() }
        let request = "GET \(Routes.health) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        var open: [RawHTTPConnection] = []
        for _ in 0..<3 {
            let connection = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
            #expect(connection.send(request))
            #expect(connection.readResponse().response?.status == 200)   // accepted and kept alive
            open.append(connection)
        }
        let extra = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
        _ = extra.send(request)
        let refused = extra.readResponse()
        guard case .closed = refused else {
            Issue.record("the fourth connection was served: \(refused)")
            return
        }
        // The three still work.
        #expect(open[0].send(request))
        #expect(open[0].readResponse().response?.status == 200)
        open.removeLast()   // closes its socket
        // The server learns of the close on its own thread; until then a new connection is still
        // the fourth. Retry (bounded) until one is served.
        var served = false
        for _ in 0..<200 where !served {
            let again = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
            _ = again.send("GET \(Routes.health) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            served = again.readResponse().response?.status == 200
            if !served { usleep(10_000) }
        }
        #expect(served, "no connection was served after one of the three closed")
    }
}
