import SignetMacros

/// An HTTP response: status, headers and a body held in memory.
///
/// The server always sends a `Content-Length` (computed by libmicrohttpd from the body) and a
/// `Date`; the constructors set `Content-Type`. `Cache-Control` is left to the caller.
@MemberwiseInit
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Response headers, in order.
    public var headers: HTTPHeaders = HTTPHeaders()
    /// The body bytes (dropped on the wire for `HEAD`, keeping `Content-Length`).
    public var body: [UInt8] = []

    /// `application/json` bytes.
    public static func json(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// `text/html; charset=utf-8`.
    public static func html(_ html: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(html.utf8))
    }

    /// A redirect (303 See Other by default) with an empty body. `location` is sent as given.
    public static func redirect(to location: String, status: Int = 303) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location], body: [])
    }

    /// An empty body (204 No Content by default).
    public static func empty(status: Int = 204) -> HTTPResponse {
        HTTPResponse(status: status)
    }

    /// Appends a `Set-Cookie` header.
    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add("Set-Cookie", cookie.headerValue)
    }
}
