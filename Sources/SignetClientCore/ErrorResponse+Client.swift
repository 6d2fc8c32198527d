import SignetJOSE
import SignetWire

/// An OAuth error response body as a client receives it: SignetWire's `ErrorResponse`, the one
/// type for the RFC 6749 §5.2 body that the server writes too.
public typealias OAuthErrorBody = ErrorResponse

extension ErrorResponse {
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
