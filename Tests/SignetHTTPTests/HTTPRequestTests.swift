import SignetTesting
import Testing
@testable import SignetHTTP

@Suite(.endToEndLimit) struct HTTPRequestTests {
    /// The server builds every request with this (and `make fuzz` drives it): the target splits at
    /// the first `?`, the path is percent-decoded, and a path that does not decode or does not
    /// start with `/` gives nil (the server's 400).
    @Test func requestsAreBuiltFromTheWire() throws {
        let request = try #require(HTTPRequest(wireMethod: "POST", requestTarget: "/oauth2/callback/a%2Fb?code=x%3F&q=?",
                                               headers: ["Cookie": "a=1"], body: Array("b=2".utf8),
                                               peerAddress: "::1", isSecure: true))
        #expect(request.method == .POST)
        #expect(request.path == "/oauth2/callback/a/b")
        #expect(request.rawPath == "/oauth2/callback/a%2Fb")
        #expect(request.rawQuery == "code=x%3F&q=?")
        #expect(request.query.first("code") == "x?")
        #expect(request.cookies == ["a": "1"])
        #expect(request.peerAddress == "::1" && request.isSecure)
        #expect(HTTPRequest(wireMethod: "GET", requestTarget: "/", headers: [:], body: [], peerAddress: "", isSecure: false)?.rawQuery == "")
        for bad in ["%zz/token", "token", "", "?a=1", "/%C3", "*"] {
            #expect(HTTPRequest(wireMethod: "GET", requestTarget: bad, headers: [:], body: [], peerAddress: "", isSecure: false) == nil,
                    "\(bad)")
        }
    }

    @Test func malformedQueryIsReportedNotThrown() {
        let request = HTTPRequest(method: .GET, path: "/", rawQuery: "a=%zz")
        #expect(request.query.isEmpty)
        #expect(request.queryError == .malformedPercentEncoding)
        #expect(throws: FormError.malformedPercentEncoding) { try request.parsedQuery() }
        let good = HTTPRequest(method: .GET, path: "/", rawQuery: "a=1")
        #expect(good.queryError == nil)
        #expect(good.query.first("a") == "1")
    }

    @Test(arguments: ["application/x-www-form-urlencoded", "Application/X-WWW-Form-URLEncoded; charset=UTF-8",
                      "application/x-www-form-urlencoded;charset=\"utf-8\""])
    func formAcceptsFormContentTypes(contentType: String) throws {
        let request = HTTPRequest(method: .POST, path: "/", headers: ["Content-Type": contentType], body: Array("a=1".utf8))
        #expect(try request.form().first("a") == "1")
    }

    @Test(arguments: ["application/json", "application/x-www-form-urlencoded; charset=iso-8859-1", "text/plain"])
    func formRefusesOtherContentTypes(contentType: String) {
        let request = HTTPRequest(method: .POST, path: "/", headers: ["Content-Type": contentType], body: Array("a=1".utf8))
        #expect(throws: FormError.unsupportedContentType) { try request.form() }
    }

    @Test func formWithoutContentTypeIsRefused() {
        #expect(throws: FormError.unsupportedContentType) { try HTTPRequest(method: .POST, path: "/").form() }
    }
}

@Suite(.endToEndLimit) struct ListenAddressTests {
    @Test func parsesLiterals() throws {
        let v4 = try ListenAddress("127.0.0.1:8080")
        #expect(v4.host == "127.0.0.1" && v4.port == 8080 && !v4.isIPv6)
        let v6 = try ListenAddress("[::1]:0")
        #expect(v6.host == "::1" && v6.port == 0 && v6.isIPv6)
        #expect(v6.description == "[::1]:0")
        #expect(try ListenAddress("0.0.0.0:443").port == 443)
        #expect(try ListenAddress("localhost:8080").host == "127.0.0.1")
    }

    @Test(arguments: ["example.com:80", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "::1:80", "[::1]80",
                      "[::1]:x", "[127.0.0.1]:80", "1.2.3:80", ":80", "127.0.0.1:-1", "127.0.0.1:+80"])
    func rejectsOthers(text: String) {
        #expect(throws: HTTPServerError.invalidListenAddress(text)) { try ListenAddress(text) }
    }
}
