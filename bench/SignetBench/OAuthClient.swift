import Foundation
import SignetCrypto
import SignetServer

/// The steps of the OpenID Connect code flow as a native app and its browser perform them, over
/// one `HTTPConnection`. Every step checks the status and the shape of the answer and throws
/// `HTTPClientError` otherwise, so a benchmark never counts a failure as throughput.
struct OAuthClient {
    /// The registered public client (first-party, loopback redirect URI).
    let clientID: String
    let redirectURI: String
    let sessionCookieName = "signet_session"
    let csrfCookieName = "signet_csrf"
    /// Binds a federated sign-in to the browser that started it (plain-http name).
    let federationCookieName = "signet_fed"

    /// Tokens from `/token`.
    struct Tokens {
        var accessToken: String
        var refreshToken: String?
        var idToken: String?
    }

    /// A code at the redirect URI and the PKCE verifier that redeems it.
    struct Code {
        var code: String
        var verifier: String
    }

    /// A fresh authorization request: PKCE verifier, state, and the query (with a nonce).
    func newRequest(scope: String) -> (verifier: String, state: String, query: String) {
        let verifier = Self.randomToken(32)
        let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        let state = Self.randomToken(12)
        let query = Self.formEncode([
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scope),
            ("state", state), ("nonce", Self.randomToken(12)), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ])
        return (verifier, state, query)
    }

    /// `GET /authorize` for a new request (fresh PKCE pair, state and nonce). With `session`, the
    /// SSO cookie is sent and the server must answer 303 with a code at the redirect URI.
    func authorize(_ connection: HTTPConnection, scope: String, session: String?) throws(HTTPClientError) -> (Code?, HTTPClientResponse) {
        let (verifier, state, query) = newRequest(scope: scope)
        var headers: [(String, String)] = []
        if let session { headers.append(("Cookie", "\(sessionCookieName)=\(session)")) }
        let response = try connection.request("GET", Routes.authorize + "?" + query, headers: headers)
        guard response.status == 303, let location = response.header("location") else {
            throw HTTPClientError("GET /authorize: status \(response.status), expected 303")
        }
        guard location.hasPrefix(redirectURI + "?") else {
            if session != nil { throw HTTPClientError("GET /authorize with a session: redirected to \(Self.pathOnly(location)), expected the redirect URI") }
            return (nil, response)
        }
        let parameters = Self.queryParameters(location)
        guard parameters["state"] == state else { throw HTTPClientError("GET /authorize: state not returned exactly") }
        guard let code = parameters["code"] else {
            throw HTTPClientError("GET /authorize: error \(parameters["error"] ?? "?") at the redirect URI")
        }
        return (Code(code: code, verifier: verifier), response)
    }

    /// A whole password sign-in, as a new browser: `GET /authorize` (303 to the sign-in page),
    /// `GET /signin` (the form, its CSRF field and cookie), `POST /signin` (Argon2id; 303 to the
    /// redirect URI with a code and the SSO cookie). Returns the code and the session cookie value.
    func passwordSignIn(_ connection: HTTPConnection, email: String, password: String, scope: String) throws(HTTPClientError) -> (code: Code, session: String) {
        let verifier = Self.randomToken(32)
        let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        let state = Self.randomToken(12)
        let query = Self.formEncode([
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scope),
            ("state", state), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ])
        let authorize = try connection.request("GET", Routes.authorize + "?" + query)
        guard authorize.status == 303, let signInPath = authorize.header("location"), signInPath.hasPrefix(Routes.signIn + "?") else {
            throw HTTPClientError("GET /authorize without a session: status \(authorize.status), expected 303 to \(Routes.signIn)")
        }
        let page = try connection.request("GET", signInPath)
        guard page.status == 200 else { throw HTTPClientError("GET /signin: status \(page.status), expected 200") }
        guard let csrf = Self.hiddenField("csrf", in: page.body), let handle = Self.hiddenField("request", in: page.body),
              let browser = page.cookies.first(where: { $0.0 == csrfCookieName })?.1 else {
            throw HTTPClientError("GET /signin: no csrf/request fields or no \(csrfCookieName) cookie")
        }
        let body = Self.formEncode([("request", handle), ("csrf", csrf), ("email", email), ("password", password)])
        let submit = try connection.request("POST", Routes.signIn, headers: [("Cookie", "\(csrfCookieName)=\(browser)")], body: body)
        guard submit.status == 303, let location = submit.header("location") else {
            throw HTTPClientError("POST /signin: status \(submit.status), expected 303")
        }
        let code = try Self.code(at: location, redirectURI: redirectURI, state: state,
                                 step: "POST /signin", hint: " (wrong password, throttled, or consent?)")
        guard let session = submit.cookies.first(where: { $0.0 == sessionCookieName })?.1, !session.isEmpty else {
            throw HTTPClientError("POST /signin: no \(sessionCookieName) cookie")
        }
        return (Code(code: code, verifier: verifier), session)
    }

    /// A federated sign-in as a new browser, against an auto-approving upstream on loopback:
    /// `GET /authorize` (303 to the sign-in page), `GET /signin` (the page with the provider's
    /// link and the CSRF cookie), `GET /federation/start` (303 to the provider, binding cookie),
    /// the provider's `/authorize` on a connection of its own (302 to Signet's callback with a
    /// code), then `GET` the callback: Signet redeems the code at the provider's token endpoint
    /// and answers 303 to the redirect URI with its own code. `inCallback` runs just before and
    /// after the callback request (the part that waits on the provider); returns Signet's code
    /// and the callback's duration in nanoseconds.
    func federatedSignIn(_ connection: HTTPConnection, connectionID: String, scope: String, timeoutSeconds: Int,
                         inCallback: (Bool) -> Void) throws(HTTPClientError) -> (code: Code, callbackNanoseconds: UInt64) {
        let (verifier, state, query) = newRequest(scope: scope)
        let authorize = try connection.request("GET", Routes.authorize + "?" + query)
        guard authorize.status == 303, let signInPath = authorize.header("location"), signInPath.hasPrefix(Routes.signIn + "?") else {
            throw HTTPClientError("GET /authorize without a session: status \(authorize.status), expected 303 to \(Routes.signIn)")
        }
        let page = try connection.request("GET", signInPath)
        guard page.status == 200 else { throw HTTPClientError("GET /signin: status \(page.status), expected 200") }
        guard let startPath = Self.providerLink(connectionID, in: page.body),
              let browser = page.cookies.first(where: { $0.0 == csrfCookieName })?.1 else {
            throw HTTPClientError("GET /signin: no link to \(Routes.federationStart) for \(connectionID), or no \(csrfCookieName) cookie")
        }
        let start = try connection.request("GET", startPath, headers: [("Cookie", "\(csrfCookieName)=\(browser)")])
        guard start.status == 303, let providerURL = start.header("location"), let provider = Self.loopbackTarget(providerURL) else {
            throw HTTPClientError("GET \(Routes.federationStart): status \(start.status), expected 303 to a provider on 127.0.0.1")
        }
        guard let binding = start.cookies.first(where: { $0.0 == federationCookieName })?.1 else {
            throw HTTPClientError("GET \(Routes.federationStart): no \(federationCookieName) cookie")
        }
        let upstream = HTTPConnection(port: provider.port, timeoutSeconds: timeoutSeconds)
        defer { upstream.disconnect() }
        let approved = try upstream.request("GET", provider.path)
        guard approved.status == 302 || approved.status == 303, let callbackURL = approved.header("location"),
              let callback = Self.loopbackTarget(callbackURL), callback.port == connection.port,
              callback.path.hasPrefix(Routes.federationCallbackPrefix + connectionID + "?") else {
            throw HTTPClientError("provider /authorize: status \(approved.status), expected a redirect to Signet's callback")
        }
        inCallback(true)
        let began = monotonicNanoseconds()
        let finished: HTTPClientResponse
        do {
            finished = try connection.request("GET", callback.path, headers: [("Cookie", "\(federationCookieName)=\(binding)")])
        } catch {
            inCallback(false)
            throw error
        }
        let took = monotonicNanoseconds() - began
        inCallback(false)
        guard finished.status == 303, let location = finished.header("location") else {
            throw HTTPClientError("GET \(Routes.federationCallbackPrefix)\(connectionID): status \(finished.status), expected 303")
        }
        let code = try Self.code(at: location, redirectURI: redirectURI, state: state,
                                 step: "GET \(Routes.federationCallbackPrefix)\(connectionID)")
        return (Code(code: code, verifier: verifier), took)
    }

    /// `POST /token` with `grant_type=authorization_code`.
    func redeem(_ connection: HTTPConnection, _ code: Code) throws(HTTPClientError) -> Tokens {
        let body = Self.formEncode([("grant_type", "authorization_code"), ("code", code.code), ("redirect_uri", redirectURI),
                                    ("client_id", clientID), ("code_verifier", code.verifier)])
        return try tokens(connection.request("POST", Routes.token, body: body), "authorization_code")
    }

    /// `POST /token` with `grant_type=refresh_token`, optionally narrowing the scope.
    func refresh(_ connection: HTTPConnection, _ refreshToken: String, scope: String?) throws(HTTPClientError) -> Tokens {
        var pairs = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID)]
        if let scope { pairs.append(("scope", scope)) }
        return try tokens(connection.request("POST", Routes.token, body: Self.formEncode(pairs)), "refresh_token")
    }

    private func tokens(_ response: HTTPClientResponse, _ grant: String) throws(HTTPClientError) -> Tokens {
        guard response.status == 200 else {
            throw HTTPClientError("POST /token (\(grant)): status \(response.status), error \(response.jsonString("error") ?? "?")")
        }
        guard let access = response.jsonString("access_token") else { throw HTTPClientError("POST /token (\(grant)): no access_token") }
        return Tokens(accessToken: access, refreshToken: response.jsonString("refresh_token"), idToken: response.jsonString("id_token"))
    }

    // MARK: small parsers

    /// The value of `<input type="hidden" name="NAME" value="...">` (Signet's field order).
    static func hiddenField(_ name: String, in html: [UInt8]) -> String? {
        let marker = Array("name=\"\(name)\" value=\"".utf8)
        guard let found = HTTPConnection.find(marker, in: html, from: 0) else { return nil }
        let start = found + marker.count
        guard let end = html[start...].firstIndex(of: 34) else { return nil }
        return String(decoding: html[start..<end], as: UTF8.self).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The first `href` on a page to `/federation/start` for `connectionID` (entities decoded).
    static func providerLink(_ connectionID: String, in html: [UInt8]) -> String? {
        let marker = Array("href=\"\(Routes.federationStart)?".utf8)
        var from = 0
        while let found = HTTPConnection.find(marker, in: html, from: from) {
            let start = found + 6
            guard let end = html[start...].firstIndex(of: 34) else { return nil }
            let href = String(decoding: html[start..<end], as: UTF8.self).replacingOccurrences(of: "&amp;", with: "&")
            if queryParameters(href)["connection"] == connectionID { return href }
            from = end
        }
        return nil
    }

    /// `http://127.0.0.1:PORT/path?query` as the port and `/path?query`; nil for anything else.
    static func loopbackTarget(_ url: String) -> (port: Int, path: String)? {
        let prefix = "http://127.0.0.1:"
        guard url.hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/"), let port = Int(rest[..<slash]) else { return nil }
        return (port, String(rest[slash...]))
    }

    /// The decoded query parameters of a URL (first value of each).
    /// The code at the app's redirect `location`, checking the redirect URI and `state`.
    static func code(at location: String, redirectURI: String, state: String, step: String, hint: String = "")
        throws(HTTPClientError) -> String {
        guard location.hasPrefix(redirectURI + "?") else {
            throw HTTPClientError("\(step): redirected to \(pathOnly(location)), expected the redirect URI\(hint)")
        }
        let parameters = queryParameters(location)
        guard parameters["state"] == state, let code = parameters["code"] else {
            throw HTTPClientError("\(step): no code or wrong state at the redirect URI (error \(parameters["error"] ?? "?"))")
        }
        return code
    }

    static func queryParameters(_ url: String) -> [String: String] {
        let bytes = Array(url.utf8)
        guard let question = bytes.firstIndex(of: 63) else { return [:] }
        var result: [String: String] = [:]
        for pair in bytes[(question + 1)...].split(separator: 38) {
            let equals = pair.firstIndex(of: 61) ?? pair.endIndex
            let name = percentDecode(pair[pair.startIndex..<equals])
            let value = equals < pair.endIndex ? percentDecode(pair[(equals + 1)...]) : ""
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// Form decoding: `+` is a space, `%XX` a byte.
    static func percentDecode(_ bytes: ArraySlice<UInt8>) -> String {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 65...70: byte - 55
            case 97...102: byte - 87
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 37, index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == 43 ? 32 : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A URL without its query (which may carry a code): safe to print.
    static func pathOnly(_ url: String) -> String { String(url.prefix { $0 != "?" }) }

    /// `application/x-www-form-urlencoded` (spaces as %20, which every decoder accepts).
    static func formEncode(_ pairs: [(String, String)]) -> String {
        pairs.map { name, value in percentEncode(name) + "=" + percentEncode(value) }.joined(separator: "&")
    }

    /// Every byte but the unreserved characters (A-Z a-z 0-9 - . _ ~) percent-encoded.
    static func percentEncode(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 48...57, 65...90, 97...122, 45, 46, 95, 126: out.append(byte)
            default: out += [37, digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `count` random bytes, base64url.
    static func randomToken(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
