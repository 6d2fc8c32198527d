import Foundation
import SignetTesting
import Testing
@testable import SignetHTTP

@Suite(.endToEndLimit) struct CookieTests {
    @Test func parsesCookieHeaderFirstWins() {
        let headers: HTTPHeaders = ["Cookie": "sid=abc; theme=dark;  sid=evil ; bad; q=\"quoted\"", "cookie": "late=1; theme=light"]
        let request = HTTPRequest(method: .GET, path: "/", headers: headers)
        #expect(request.cookies == ["sid": "abc", "theme": "dark", "q": "quoted", "late": "1"])
    }

    @Test func noCookieHeader() {
        #expect(HTTPRequest(method: .GET, path: "/").cookies.isEmpty)
    }

    @Test func setCookieFormatting() {
        let cookie = SetCookie(name: "sid", value: "v1", path: "/", maxAge: 3600,
                               expires: Date(timeIntervalSince1970: 784_111_777), domain: "id.example.com",
                               secure: true, httpOnly: true, sameSite: .strict)
        #expect(cookie.headerValue
            == "sid=v1; Path=/; Domain=id.example.com; Max-Age=3600; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Secure; HttpOnly; SameSite=Strict")
        #expect(!cookie.description.contains("v1"))
        let minimal = SetCookie(name: "a", value: "b", path: nil, secure: false, httpOnly: false, sameSite: nil)
        #expect(minimal.headerValue == "a=b")
        #expect(SetCookie(name: "x", value: "y", sameSite: SetCookie.SameSite.none).headerValue == "x=y; Path=/; Secure; HttpOnly; SameSite=None")
    }

    @Test func hostPrefixOnlyWhenSecure() {
        #expect(SetCookie.hostPrefixed("signet_session", secure: true) == "__Host-signet_session")
        #expect(SetCookie.hostPrefixed("signet_session", secure: false) == "signet_session")
    }

    @Test func deletingCookie() {
        #expect(SetCookie.deleting("sid").headerValue
            == "sid=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure; HttpOnly; SameSite=Lax")
    }

    @Test func responseSetCookieAppendsHeaders() {
        var response = HTTPResponse.redirect(to: "/next")
        response.setCookie(SetCookie(name: "a", value: "1"))
        response.setCookie(SetCookie(name: "b", value: "2"))
        #expect(response.headers.values("Set-Cookie").count == 2)
        #expect(response.status == 303)
        #expect(response.headers["Location"] == "/next")
    }
}
