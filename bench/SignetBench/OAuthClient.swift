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

    /// `GET /authorize` for a new request (fresh PKCE pair, state and nonce). With `session`, the
    /// SSO cookie is sent and the server must answer 303 with a code at the redirect URI.
    func authorize(_ connection: HTTPConnection, scope: String, session: String?) throws(HTTPClientError) -> (Code?, HTTPClientResponse) {
        let verifier = Self.randomToken(32)
        let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        let state = Self.randomToken(12)
        let query = Self.formEncode([
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scope),
            ("state", state), ("nonce", Self.randomToken(12)), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ])
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
        let html = page.text
        guard let csrf = Self.hiddenField("csrf", in: html), let handle = Self.hiddenField("request", in: html),
              let browser = page.cookies.first(where: { $0.0 == csrfCookieName })?.1 else {
            throw HTTPClientError("GET /signin: no csrf/request fields or no \(csrfCookieName) cookie")
        }
        let body = Self.formEncode([("request", handle), ("csrf", csrf), ("email", email), ("password", password)])
        let submit = try connection.request("POST", Routes.signIn, headers: [("Cookie", "\(csrfCookieName)=\(browser)")], body: body)
        guard submit.status == 303, let location = submit.header("location") else {
            throw HTTPClientError("POST /signin: status \(submit.status), expected 303")
        }
        guard location.hasPrefix(redirectURI + "?") else {
            throw HTTPClientError("POST /signin: redirected to \(Self.pathOnly(location)), expected the redirect URI (wrong password, throttled, or consent?)")
        }
        let parameters = Self.queryParameters(location)
        guard parameters["state"] == state, let code = parameters["code"] else {
            throw HTTPClientError("POST /signin: no code or wrong state at the redirect URI (error \(parameters["error"] ?? "?"))")
        }
        guard let session = submit.cookies.first(where: { $0.0 == sessionCookieName })?.1, !session.isEmpty else {
            throw HTTPClientError("POST /signin: no \(sessionCookieName) cookie")
        }
        return (Code(code: code, verifier: verifier), session)
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
        let text = response.text
        guard response.status == 200 else {
            throw HTTPClientError("POST /token (\(grant)): status \(response.status), error \(Self.jsonString("error", in: text) ?? "?")")
        }
        guard let access = Self.jsonString("access_token", in: text) else { throw HTTPClientError("POST /token (\(grant)): no access_token") }
        return Tokens(accessToken: access, refreshToken: Self.jsonString("refresh_token", in: text),
                      idToken: Self.jsonString("id_token", in: text))
    }

    // MARK: small parsers (the values involved never contain escapes: tokens are base64url)

    /// The string value of `"key"` in a flat JSON object; nil when absent or not a plain string.
    static func jsonString(_ key: String, in text: String) -> String? {
        guard let keyRange = text.range(of: "\"\(key)\"") else { return nil }
        var index = keyRange.upperBound
        while index < text.endIndex, text[index] == " " || text[index] == ":" { index = text.index(after: index) }
        guard index < text.endIndex, text[index] == "\"" else { return nil }
        let start = text.index(after: index)
        guard let end = text[start...].firstIndex(of: "\"") else { return nil }
        let value = text[start..<end]
        return value.contains("\\") ? nil : String(value)
    }

    /// The value of `<input type="hidden" name="NAME" value="...">`.
    static func hiddenField(_ name: String, in html: String) -> String? {
        guard let nameRange = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        guard let end = html[nameRange.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(html[nameRange.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The decoded query parameters of a URL (first value of each).
    static func queryParameters(_ url: String) -> [String: String] {
        guard let question = url.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in url[url.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// A URL without its query (which may carry a code): safe to print.
    static func pathOnly(_ url: String) -> String { String(url.prefix { $0 != "?" }) }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `application/x-www-form-urlencoded` (spaces as %20, which every decoder accepts).
    static func formEncode(_ pairs: [(String, String)]) -> String {
        pairs.map { name, value in percentEncode(name) + "=" + percentEncode(value) }.joined(separator: "&")
    }

    /// Every byte but the unreserved characters percent-encoded.
    static func percentEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `count` random bytes, base64url.
    static func randomToken(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
