import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetClientCore
import SignetHTTP
import SignetJOSE

/// An HTTP client for end-to-end tests that NEVER follows redirects: a 3xx comes back as it is,
/// with its raw `Location`. One HTTP/1.1 connection per request (`Connection: close`), over a
/// plain socket on a thread of its own; timeouts of 10 s by default.
///
/// FoundationNetworking's URLSession is not used: the tests made hundreds of short-lived
/// sessions, and tearing one down races libcurl's socket callbacks inside FoundationNetworking
/// (`_MultiHandle`), an upstream crash family (swift-corelibs-foundation #4791, #5491) that can
/// abort the whole test process; it also keeps a core busy while a request waits (docs/testing.md).
/// What URLSession sent by default is kept: `User-Agent`, `Accept: */*`, and a form
/// `Content-Type` on a POST with a body and none given. Repeated response headers are joined
/// with ", " as URLSession did, except `Set-Cookie`, kept one value per cookie.
///
/// With a `CookieJar`, cookies from responses are stored and sent back on later requests; without
/// one, no cookie is ever sent unless a test puts a `Cookie` header in itself.
public final class HTTPTestClient: Sendable {
    /// The cookie jar, if this client keeps cookies.
    public let cookies: CookieJar?
    /// The per-request timeout in seconds.
    public let timeoutSeconds: TimeInterval

    /// Creates a client; pass a jar to keep cookies.
    public init(cookies: CookieJar? = nil, timeoutSeconds: TimeInterval = 10) {
        self.cookies = cookies
        self.timeoutSeconds = timeoutSeconds
    }

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

    /// Any request. A `Cookie` header from the jar is added unless `headers` has one. A refused
    /// connection, a timeout or a connection closed without a response throws `TestingError`.
    public func send(method: String, url: URL, body: [UInt8]? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        if !headers.contains("Cookie"), let cookie = cookies?.headerValue(for: url) { headers.set("Cookie", cookie) }
        let target = try Target(url)
        let head = Self.requestHead(method: method, target: target, body: body, headers: headers)
        let timeout = max(1, Int(timeoutSeconds.rounded(.up)))
        let isHead = method == "HEAD"
        let outcome = try await Blocking.run { () throws -> RawHTTPConnection.Outcome in
            let connection = try RawHTTPConnection(host: target.address, port: target.port, timeoutSeconds: timeout)
            if connection.send(head), let body, !body.isEmpty {
                connection.sendUntilAnswered(body)   // a refusal from the head alone still has its answer to read
            }
            return connection.readFinalResponse(isHead: isHead)
        }
        guard let raw = outcome.response else { throw TestingError("\(method) \(url.absoluteString): \(outcome)") }
        let result = TestResponse(status: raw.status, headers: Self.headers(of: raw.head), body: raw.body, url: url)
        cookies?.store(result)
        return result
    }

    /// Where a URL's request goes: a numeric address and port, the request target and `Host`.
    struct Target: Sendable {
        let address: String
        let port: Int
        let requestTarget: String
        let hostHeader: String

        init(_ url: URL) throws {
            // A URL relative to a base (a redirect's `Location`) is resolved first.
            guard url.absoluteURL.scheme?.lowercased() == "http",
                  let components = URLComponents(url: url, resolvingAgainstBaseURL: true), var host = components.host, !host.isEmpty else {
                throw TestingError("HTTPTestClient speaks plain http to a host: \(url.absoluteString)")
            }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            port = components.port ?? 80
            address = try Self.numericAddress(host)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            requestTarget = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            let hostPart = host.contains(":") ? "[\(host)]" : host
            hostHeader = components.port == nil ? hostPart : "\(hostPart):\(port)"
        }

        /// `host` as an IPv4 or IPv6 literal, resolving a name (e.g. `localhost`) first.
        static func numericAddress(_ host: String) throws -> String {
            var probe = in6_addr()
            if inet_pton(AF_INET, host, &probe) == 1 || inet_pton(AF_INET6, host, &probe) == 1 { return host }
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { throw TestingError("cannot resolve \(host)") }
            defer { freeaddrinfo(list) }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0,
                              NI_NUMERICHOST) == 0 else { throw TestingError("cannot resolve \(host)") }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The request line and headers (ending in the blank line), in the order given.
    static func requestHead(method: String, target: Target, body: [UInt8]?, headers: HTTPHeaders) -> [UInt8] {
        var lines = ["\(method) \(target.requestTarget) HTTP/1.1", "Host: \(target.hostHeader)"]
        for (name, value) in headers {
            let lower = name.lowercased()
            if lower == "host" || lower == "connection" || lower == "content-length" { continue }
            lines.append("\(name): \(value)")
        }
        if !headers.contains("User-Agent") { lines.append("User-Agent: SignetTesting") }
        if !headers.contains("Accept") { lines.append("Accept: */*") }
        let length = body?.count ?? 0
        if method == "POST", length > 0, !headers.contains("Content-Type") {
            lines.append("Content-Type: application/x-www-form-urlencoded")
        }
        if length > 0 || method == "POST" || method == "PUT" || method == "PATCH" { lines.append("Content-Length: \(length)") }
        lines.append("Connection: close")
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The response's headers, sorted by name (as before: tests read them by name); repeated ones
    /// joined with ", ", except `Set-Cookie`, one entry per cookie.
    static func headers(of head: String) -> HTTPHeaders {
        var names: [String] = []
        var values: [String: [String]] = [:]
        var spelled: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let key = name.lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if values[key] == nil { names.append(key); spelled[key] = name }
            values[key, default: []].append(value)
        }
        var headers = HTTPHeaders()
        for key in names.sorted() {
            let name = spelled[key] ?? key
            let all = values[key] ?? []
            if key == "set-cookie" {
                for cookie in all { headers.add(name, cookie) }
            } else {
                headers.add(name, all.joined(separator: ", "))
            }
        }
        return headers
    }
}
