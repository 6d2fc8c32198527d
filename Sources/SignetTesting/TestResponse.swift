import Foundation
import SignetHTTP
import SignetJOSE

/// One HTTP response as a test sees it: status, every header (case-insensitive lookup, repeated
/// headers kept), and the raw body.
public struct TestResponse: Sendable, CustomStringConvertible {
    /// The status code.
    public let status: Int
    /// The headers, in order; `headers["content-type"]` looks up case-insensitively.
    public let headers: HTTPHeaders
    /// The body bytes (empty for HEAD).
    public let body: [UInt8]
    /// The URL that was requested.
    public let url: URL

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON with SignetJOSE's strict parser.
    public func json() throws -> JSONValue {
        do { return try JSONValue.parse(body) } catch {
            throw TestingError("\(url.path): the body is not JSON (\(error)): \(text.prefix(300))")
        }
    }

    /// The first value of a header, case-insensitively.
    public func header(_ name: String) -> String? { headers[name] }

    /// The raw `Location` header (never resolved: custom schemes stay intact).
    public var location: String? { headers["Location"] }

    /// The `Content-Type` without parameters, lowercased (`application/json`).
    public var mediaType: String? {
        headers["Content-Type"].map { String($0.split(separator: ";")[0]).trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The `Set-Cookie` header values, one per cookie.
    public var setCookies: [String] { headers.values("Set-Cookie") }

    /// The `Location` header parsed as a redirect target, if there is one.
    public var redirect: RedirectTarget? { location.map(RedirectTarget.init) }

    /// Status, headers and the start of the body, for failure messages.
    public var description: String {
        "HTTP \(status) \(url.absoluteString)\n\(headers.description)\n\n\(text.prefix(500))"
    }
}
