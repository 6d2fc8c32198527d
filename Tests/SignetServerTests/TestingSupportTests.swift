import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetHTTP
import Synchronization
import Testing
@testable import SignetTesting

/// The test kit itself: cookie rules, HTML forms, query parsing, PKCE, subprocesses.
@Suite(.endToEndLimit) struct TestingSupportTests {
    static let site = URL(string: "http://id.example.com/a/b/page")!

    // MARK: cookies

    @Test func cookieDefaultPathAndPathMatching() throws {
        let jar = CookieJar()
        jar.store(setCookie: "dir=1", from: Self.site)                    // default path /a/b
        jar.store(setCookie: "root=2; Path=/", from: Self.site)
        jar.store(setCookie: "narrow=3; Path=/a/bc", from: Self.site)
        #expect(jar.headerValue(for: URL(string: "http://id.example.com/a/b/x")!) == "dir=1; root=2")
        #expect(jar.headerValue(for: URL(string: "http://id.example.com/a/bc")!) == "narrow=3; root=2")
        #expect(jar.headerValue(for: URL(string: "http://id.example.com/a")!) == "root=2")
        #expect(jar.headerValue(for: URL(string: "http://other.example.com/a/b/x")!) == nil)   // host-only
    }

    @Test func maxAgeZeroAndPastExpiresDelete() {
        let jar = CookieJar()
        jar.store(setCookie: "sid=abc; Path=/", from: Self.site)
        jar.store(setCookie: "keep=1; Path=/", from: Self.site)
        #expect(jar["sid"]?.value == "abc")
        jar.store(setCookie: "sid=; Path=/; Max-Age=0", from: Self.site)
        #expect(jar["sid"] == nil)
        jar.store(setCookie: "keep=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT", from: Self.site)
        #expect(jar.all.isEmpty)
    }

    @Test func maxAgeFollowsTheInjectedClock() {
        let clock = Clock()
        let jar = CookieJar(now: { clock.now })
        jar.store(setCookie: "short=1; Max-Age=60; Path=/", from: Self.site)
        #expect(jar["short"] != nil)
        clock.advance(61)
        #expect(jar["short"] == nil)
        #expect(jar.headerValue(for: Self.site) == nil)
    }

    @Test func secureCookiesGoOnlyOverHTTPSAndDomainCoversSubdomains() {
        let jar = CookieJar()
        jar.store(setCookie: "s=1; Secure; Path=/; HttpOnly; SameSite=Lax", from: URL(string: "https://example.com/")!)
        #expect(jar.headerValue(for: URL(string: "http://example.com/")!) == nil)
        #expect(jar.headerValue(for: URL(string: "https://example.com/")!) == "s=1")
        #expect(jar["s"]?.httpOnly == true)
        #expect(jar["s"]?.sameSite == "Lax")
        // Loopback over http is a secure context, as in browsers; other http hosts may not set Secure cookies.
        jar.store(setCookie: "l=1; Secure; Path=/", from: URL(string: "http://127.0.0.1:8080/")!)
        #expect(jar.headerValue(for: URL(string: "http://127.0.0.1:9/x")!) == "l=1")
        jar.store(setCookie: "plain=1; Secure; Path=/", from: URL(string: "http://example.com/")!)
        #expect(jar["plain"] == nil)
        jar.store(setCookie: "d=2; Domain=.example.com; Path=/", from: URL(string: "https://id.example.com/")!)
        #expect(jar.headerValue(for: URL(string: "http://api.example.com/")!) == "d=2")
        // A Domain that does not cover the host is ignored.
        jar.store(setCookie: "evil=3; Domain=attacker.test", from: URL(string: "https://id.example.com/")!)
        #expect(jar["evil"] == nil)
    }

    final class Clock: Sendable {
        private let start = Date()
        private let offset = Atomic<Int>(0)
        var now: Date { start.addingTimeInterval(TimeInterval(offset.load(ordering: .relaxed))) }
        func advance(_ seconds: Int) { offset.add(seconds, ordering: .relaxed) }
    }

    // MARK: HTML forms

    static let page = """
    <!DOCTYPE html><html><head><title>Sign in &amp; go</title>
    <script>var s = '<form action="/fake"><input name="x"></form>';</script></head>
    <body><!-- <form action="/commented"></form> -->
    <form method="post" action="login?step=1" id="login">
      <input type="hidden" name="csrf" value="a&amp;b&#x3D;c&#61;">
      <input name=username value=bob>
      <input type="password" name="password">
      <input type="checkbox" name="remember" value="yes" checked>
      <input type="checkbox" name="marketing">
      <input type="radio" name="choice" value="a"><input type="radio" name="choice" value="b" checked>
      <input type="text" name="off" value="x" disabled>
      <select name="lang"><option value="en">English</option><option selected>fr</option></select>
      <select name="first"><option value="one">1</option><option value="two">2</option></select>
      <textarea name="note">
    hello &lt;world&gt;</textarea>
      <button type="submit" name="action" value="login">Sign in</button>
      <button name="action" value="cancel">Cancel</button>
      <input type="submit" name="alt" value="Other">
    </form>
    <form action=""><input type="hidden" name="q" value="1"></form>
    <FORM ACTION="https://elsewhere.example/x" METHOD=GET></FORM>
    </body></html>
    """

    @Test func parsesFormsTolerantly() throws {
        let forms = HTMLForm.forms(in: Self.page, pageURL: Self.site)
        try #require(forms.count == 3)
        let login = forms[0]
        #expect(login.method == "POST")
        #expect(login.id == "login")
        #expect(login.action.absoluteString == "http://id.example.com/a/b/login?step=1")
        #expect(login.value("csrf") == "a&b=c=")
        #expect(login.value("username") == "bob")
        #expect(login.value("password") == "")
        #expect(login.value("remember") == "yes")
        #expect(login.value("marketing") == nil)
        #expect(login.value("choice") == "b")
        #expect(login.value("off") == nil)
        #expect(login.value("lang") == "fr")
        #expect(login.value("first") == "one")
        #expect(login.value("note") == "hello <world>")
        #expect(login.buttons.map(\.name) == ["action", "action", "alt"])
        #expect(forms[1].action == Self.site)      // empty action: the page itself
        #expect(forms[1].method == "GET")
        #expect(forms[2].action.absoluteString == "https://elsewhere.example/x")
    }

    @Test func submissionAppliesOverridesRemovalsAndTheButton() throws {
        let login = HTMLForm.forms(in: Self.page, pageURL: Self.site)[0]
        let pairs = try login.submission(overrides: ["password": "pw", "extra": "1"], removing: ["csrf"], pressing: "action")
        let names = pairs.map(\.0)
        #expect(!names.contains("csrf"))
        #expect(pairs.first { $0.0 == "password" }?.1 == "pw")
        #expect(pairs.last?.0 == "action" && pairs.last?.1 == "login")   // the first button of that name
        #expect(names.contains("extra"))
        #expect(!names.contains("alt"))
        #expect(throws: TestingError.self) { try login.submission(pressing: "nope") }
    }

    // MARK: queries, redirects, PKCE

    @Test func redirectTargetsKeepCustomSchemesAndParseStrictly() throws {
        let target = RedirectTarget("com.example.app:/oauth2redirect?code=a%2Bb+c&state=xyz&iss=http%3A%2F%2F127.0.0.1%3A8080#frag=1")
        #expect(target.scheme == "com.example.app")
        #expect(target.base == "com.example.app:/oauth2redirect")
        let query = try target.query()
        #expect(query["code"] == "a+b c")
        #expect(try query.single("state") == "xyz")
        #expect(query["iss"] == "http://127.0.0.1:8080")
        #expect(try target.fragment()["frag"] == "1")
        #expect(RedirectTarget("/relative?x=1").scheme == nil)
        #expect(throws: TestingError.self) { try URLQuery(parsing: "code=%zz") }
        #expect(throws: TestingError.self) { try URLQuery(parsing: "a=1&a=2").single("a") }
        #expect(URLQuery.encode([("redirect_uri", "com.example.app:/cb"), ("scope", "openid profile")])
                == "redirect_uri=com.example.app%3A%2Fcb&scope=openid%20profile")
    }

    @Test func pkceMatchesRFC7636AppendixB() {
        let pair = PKCEPair(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pair.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pair.method == "S256")
        let fresh = PKCEPair.generate()
        #expect(fresh.verifier.count == 43)
        #expect(fresh.verifier != PKCEPair.generate().verifier)
        #expect(PKCEPair(verifier: fresh.verifier).challenge == fresh.challenge)
    }

    @Test func responseHeadersAreSortedRepeatedOnesJoinedAndCookiesKeptApart() {
        let head = "HTTP/1.1 200 OK\r\nVary: Origin\r\nSet-Cookie: a=1; Path=/\r\nCache-Control: no-store\r\n"
            + "Set-Cookie: b=2; Expires=Wed, 21 Oct 2035 07:28:00 GMT; Path=/\r\nvary: Cookie"
        let headers = HTTPTestClient.headers(of: head)
        #expect(headers.map(\.name) == ["Cache-Control", "Set-Cookie", "Set-Cookie", "Vary"])
        #expect(headers["vary"] == "Origin, Cookie")
        #expect(headers.values("Set-Cookie") == ["a=1; Path=/", "b=2; Expires=Wed, 21 Oct 2035 07:28:00 GMT; Path=/"])
    }

    @Test func chunkedBodiesAreDecodedAndCutOnesRefused() {
        #expect(RawHTTPConnection.dechunk(Array("4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\n\r\n".utf8)) == Array("Wikipedia".utf8))
        #expect(RawHTTPConnection.dechunk(Array("4\r\nWik".utf8)) == nil)
        #expect(RawHTTPConnection.dechunk(Array("zz\r\n".utf8)) == nil)
    }

    /// Over real sockets: a body without Content-Length read to the close, a chunked one, a 100
    /// Continue skipped, a HEAD without body, and a large body refused from its head alone still
    /// gets its answer (the client stops sending when the server answers first).
    @Test func theClientReadsEveryFramingAndStopsSendingWhenAnswered() async throws {
        let answers: [String: String] = [
            "/close": "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end",
            "/chunked": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
            "/continue": "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
            "/head": "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
            "/big": "HTTP/1.1 413 Content Too Large\r\nContent-Length: 9\r\nConnection: close\r\n\r\ntoo large",
        ]
        let server = try ScriptedHTTPServer(answers: answers)
        defer { server.stop() }
        let client = HTTPTestClient()
        #expect(try await client.get(server.url("/close")).text == "to the end")
        #expect(try await client.get(server.url("/chunked")).text == "abcde")
        #expect(try await client.get(try #require(URL(string: "../close", relativeTo: server.url("/a/b")))).text == "to the end")
        let created = try await client.get(server.url("/continue"))
        #expect(created.status == 201 && created.text == "ok")
        let head = try await client.head(server.url("/head"))
        #expect(head.status == 200 && head.body.isEmpty)
        let size = 64 << 20
        let big = try await client.send(method: "POST", url: server.url("/big"), body: [UInt8](repeating: 0x61, count: size))
        #expect(big.status == 413 && big.text == "too large")
        #expect(await Polling.wait(seconds: 20) { server.bodyBytes("/big") != nil })
        #expect((server.bodyBytes("/big") ?? size) < size, "the whole body was sent after the answer")
        server.stop()
        await #expect(throws: TestingError.self) { try await client.get(server.url("/close")) }
    }

    // MARK: subprocesses

    @Test func subprocessCollectsStatusOutputAndInput() async throws {
        let result = try await Subprocess.run("/bin/sh", ["-c", "cat; echo err >&2; exit 3"], stdin: Array("hello".utf8))
        #expect(result.status == 3)
        #expect(!result.succeeded)
        #expect(result.stdout == "hello")
        #expect(result.stderr == "err\n")
        let env = try await Subprocess.run("/bin/sh", ["-c", "printf %s \"$SIGNET_PROBE\""], environment: ["SIGNET_PROBE": "42"])
        #expect(env.stdout == "42")
        await #expect(throws: TestingError.self) { try await Subprocess.run("/bin/sleep", ["20"], timeoutSeconds: 0.3) }
    }
}

/// A loopback server that answers each request with a scripted response for its path (404
/// otherwise), then closes its side and counts the body bytes that still arrive.
private final class ScriptedHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let answers: [String: String]
    /// Guarded by `lock`.
    private var received: [String: Int] = [:]
    private let lock = NSLock()

    init(answers: [String: String]) throws {
        self.answers = answers
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ready else {
            close(fd)
            throw TestingError("cannot listen on 127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    /// The body bytes that arrived for `path` after the answer, once its connection closed.
    func bodyBytes(_ path: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return received[path]
    }

    deinit { close(listener) }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { return }
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Int?
        while headEnd == nil {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = (0..<max(0, buffer.count - 3)).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
        }
        guard let headEnd else { return }
        let requestLine = String(decoding: buffer[0..<headEnd], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = requestLine.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        let answer = Array((answers[path] ?? "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n").utf8)
        _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        var bodyBytes = buffer.count - headEnd - 4
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bodyBytes += count
        }
        lock.lock()
        received[path] = bodyBytes
        lock.unlock()
    }
}
