import SignetJOSE
import SignetWire

/// An OAuth error response body as a client receives it: the code as sent (which may be one
/// Signet does not know) and the optional description and URI.
public struct OAuthErrorBody: Sendable, Equatable {
    /// The `error` member exactly as sent.
    public let error: String
    /// `error_description`, if any.
    public let errorDescription: String?
    /// `error_uri`, if any (RFC 6749 §5.2).
    public let errorURI: String?

    /// Creates a body.
    public init(error: String, errorDescription: String? = nil, errorURI: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
    }

    /// Reads the members of RFC 6749 §5.2 from a JSON error body; nil without a string `error`.
    public init?(json object: [String: JSONValue]) {
        guard let error = object["error"]?.stringValue else { return nil }
        self.init(error: error, errorDescription: object["error_description"]?.stringValue,
                  errorURI: object["error_uri"]?.stringValue)
    }

    /// The registered code, when `error` is one Signet knows.
    public var code: OAuthErrorCode? { OAuthErrorCode(rawValue: error) }

    /// As a SignetWire `OAuthError` when the code is registered.
    public var oauthError: OAuthError? { code.map { OAuthError($0, errorDescription) } }
}
