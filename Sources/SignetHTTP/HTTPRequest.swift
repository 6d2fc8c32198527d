/// One HTTP request, fully read (headers and body), as a handler sees it.
///
/// The query string is parsed once when the request is built. A malformed query (broken
/// percent-encoding, invalid UTF-8) does not stop the request: it reaches the handler with
/// `query` empty and `queryError` set, so the handler decides how to answer. `parsedQuery()`
/// is the throwing form of the same thing.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, e.g. `/oauth2/callback/google`. Never includes the query.
    public var path: String
    /// The path exactly as sent, still percent-encoded.
    public var rawPath: String
    /// The query exactly as sent, without `?` (empty if none). Carries codes and tokens: never log it.
    public var rawQuery: String
    /// The parsed query; empty if there was none or if it was malformed (see `queryError`).
    public var query: FormFields
    /// Why the query could not be parsed, or nil if it was fine.
    public var queryError: FormError?
    /// Request headers in the order received.
    public var headers: HTTPHeaders
    /// The request body (at most the configured `maxBodyBytes`).
    public var body: [UInt8]
    /// The IP literal of the connection's peer (`127.0.0.1`, `::1`), without port or brackets.
    public var peerAddress: String
    /// The client's IP literal: the peer, or, when the peer is a trusted proxy, the client it
    /// forwarded for (`TrustedProxies`). Use this, not `peerAddress`, to tell clients apart.
    public var clientAddress: String
    /// Whether the client's request arrived over TLS (at this server, or at a trusted proxy that
    /// said so).
    public var isSecure: Bool
    /// Values of `{name}` segments of the matched route pattern, percent-decoded.
    public var pathParameters: [String: String]

    /// Builds a request; `query`/`queryError` are derived from `rawQuery`.
    public init(method: HTTPMethod, path: String, rawPath: String? = nil, rawQuery: String = "",
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], peerAddress: String = "127.0.0.1",
                isSecure: Bool = false, pathParameters: [String: String] = [:], clientAddress: String? = nil) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.peerAddress = peerAddress
        self.clientAddress = clientAddress ?? peerAddress
        self.isSecure = isSecure
        self.pathParameters = pathParameters
        if rawQuery.isEmpty {
            query = FormFields()
            queryError = nil
        } else {
            do {
                query = try FormFields.parse(Array(rawQuery.utf8))
                queryError = nil
            } catch {
                query = FormFields()
                queryError = error
            }
        }
    }

    /// The key under which rate limits count this client: its address, an IPv6 client by its /64
    /// (see `IPAddress.rateLimitKey`).
    public var clientKey: String { IPAddress(clientAddress)?.rateLimitKey ?? clientAddress }

    /// The parsed query, or the error that made it unparseable.
    public func parsedQuery() throws(FormError) -> FormFields {
        if let queryError { throw queryError }
        return query
    }

    /// The body parsed as a form. Requires `Content-Type: application/x-www-form-urlencoded`,
    /// optionally with `charset=utf-8` (any other charset is refused).
    public func form() throws(FormError) -> FormFields {
        guard let contentType = headers["Content-Type"], HTTPRequest.isFormContentType(contentType) else {
            throw .unsupportedContentType
        }
        return try FormFields.parse(body)
    }

    /// Cookies from the `Cookie` header(s); when a name repeats, the first value wins.
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for header in headers.values("Cookie") {
            for part in header.split(separator: ";") {
                let trimmed = part.trimmingASCIISpaces()
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                let name = String(trimmed[..<equals]).trimmingASCIISpaces()
                var value = Substring(trimmed[trimmed.index(after: equals)...]).trimmingASCIISpaces()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {   // RFC 6265 §4.1.1 quoted value
                    value = String(value.dropFirst().dropLast())
                }
                guard !name.isEmpty, result[name] == nil else { continue }
                result[name] = value
            }
        }
        return result
    }

    /// Whether `value` names the form media type with no charset or a UTF-8 one.
    static func isFormContentType(_ value: String) -> Bool {
        // The value nearly every client sends, which has no parameters to read.
        if HTTPHeaders.equalsIgnoringCase(value, "application/x-www-form-urlencoded") { return true }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        guard let media = parts.first,
              HTTPHeaders.equalsIgnoringCase(media.trimmingASCIISpaces(), "application/x-www-form-urlencoded") else { return false }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return false }
            let name = pair[0].trimmingASCIISpaces()
            var charset = pair[1].trimmingASCIISpaces()
            if charset.count >= 2, charset.hasPrefix("\""), charset.hasSuffix("\"") { charset = String(charset.dropFirst().dropLast()) }
            if HTTPHeaders.equalsIgnoringCase(name, "charset"), !HTTPHeaders.equalsIgnoringCase(charset, "utf-8") { return false }
        }
        return true
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
