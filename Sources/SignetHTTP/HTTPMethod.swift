/// An HTTP request method token (RFC 9110 §9). Any token is accepted; the common ones are statics.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent, e.g. `"GET"` (methods are case-sensitive).
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`
    public static let GET = HTTPMethod(rawValue: "GET")
    /// `POST`
    public static let POST = HTTPMethod(rawValue: "POST")
    /// `HEAD`
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    /// `PUT`
    public static let PUT = HTTPMethod(rawValue: "PUT")
    /// `DELETE`
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH`
    public static let PATCH = HTTPMethod(rawValue: "PATCH")

    /// The method token.
    public var description: String { rawValue }
}
