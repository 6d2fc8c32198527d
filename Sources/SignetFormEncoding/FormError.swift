/// Why form-encoded input (a query string or an `application/x-www-form-urlencoded` body) was refused.
public enum FormError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A `%` not followed by two hex digits.
    case malformedPercentEncoding
    /// The decoded bytes of a name or value are not valid UTF-8.
    case invalidUTF8
    /// A parameter that must appear at most once appeared more than once (RFC 6749 §3.1).
    case repeated(String)
    /// The body is not `application/x-www-form-urlencoded` (or declares a charset other than UTF-8).
    case unsupportedContentType

    /// A short, public explanation.
    public var description: String {
        switch self {
        case .malformedPercentEncoding: "malformed percent-encoding"
        case .invalidUTF8: "invalid UTF-8 after percent-decoding"
        case .repeated(let name): "parameter '\(name)' is repeated"
        case .unsupportedContentType: "content type must be application/x-www-form-urlencoded"
        }
    }
}
