import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SignetClientCore
import SignetHTTP
import SignetJOSE

/// An HTTP client for end-to-end tests that NEVER follows redirects: a 3xx comes back as it is,
/// with its raw `Location`. Ephemeral (no disk cache, no shared cookie store), 10 s timeouts.
///
/// With a `CookieJar`, cookies from responses are stored and sent back on later requests; without
/// one, no cookie is ever sent unless a test puts a `Cookie` header in itself.
public final class HTTPTestClient: Sendable {
    /// The cookie jar, if this client keeps cookies.
    public let cookies: CookieJar?
    /// The per-request timeout in seconds.
    public let timeoutSeconds: TimeInterval
    private let session: URLSession

    /// Creates a client; pass a jar to keep cookies.
    public init(cookies: CookieJar? = nil, timeoutSeconds: TimeInterval = 10) {
        self.cookies = cookies
        self.timeoutSeconds = timeoutSeconds
        session = URLSession(configuration: OutboundHTTP.statelessSessionConfiguration(timeLimit: timeoutSeconds),
                             delegate: NoRedirectDelegate(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// `GET url`.
    public func get(_ url: URL, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(method: "GET", url: url, headers: headers)
    }

    /// `HEAD url`.
    public func head(_ url: URL, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(method: "HEAD", url: url, headers: headers)
    }

    /// `POST url` with an `application/x-www-form-urlencoded` body, strictly encoded, in order.
    public func post(_ url: URL, form: [(String, String)], headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.set("Content-Type", "application/x-www-form-urlencoded") }
        return try await send(method: "POST", url: url, body: Array(FormEncoding.encode(form).utf8), headers: headers)
    }

    /// `POST url` with a JSON body.
    public func post(_ url: URL, json: JSONValue, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.set("Content-Type", "application/json") }
        return try await send(method: "POST", url: url, body: json.serialized(), headers: headers)
    }

    /// Any request. A `Cookie` header from the jar is added unless `headers` has one.
    public func send(method: String, url: URL, body: [UInt8]? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.httpMethod = method
        request.httpShouldHandleCookies = false
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        if !headers.contains("Cookie"), let cookie = cookies?.headerValue(for: url) {
            request.setValue(cookie, forHTTPHeaderField: "Cookie")
        }
        if let body { request.httpBody = Data(body) }
        // Transport failures (refused, timed out) surface as the URLError itself, for tests that expect them.
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestingError("\(method) \(url.absoluteString): not an HTTP response") }
        let result = TestResponse(status: http.statusCode, headers: Self.headers(of: http), body: Array(data), url: url)
        cookies?.store(result)
        return result
    }

    /// The response's headers as an ordered list. FoundationNetworking joins repeated headers
    /// with ", "; `Set-Cookie` is split again (a comma followed by a digit is part of an Expires date).
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let fields = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String, let value = value as? String else { return nil }
            return (name, value)
        }.sorted { $0.0.lowercased() < $1.0.lowercased() }
        for (name, value) in fields {
            if name.lowercased() == "set-cookie" {
                for cookie in splitSetCookie(value) { headers.add(name, cookie) }
            } else {
                headers.add(name, value)
            }
        }
        return headers
    }

    /// Splits joined `Set-Cookie` values at commas that start a new cookie.
    static func splitSetCookie(_ joined: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var index = joined.startIndex
        while index < joined.endIndex {
            let character = joined[index]
            let next = joined.index(after: index)
            if character == "," {
                let rest = joined[next...].drop { $0 == " " }
                if let first = rest.first, !first.isNumber {
                    parts.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                    index = next
                    continue
                }
            }
            current.append(character)
            index = next
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { parts.append(last) }
        return parts
    }
}
