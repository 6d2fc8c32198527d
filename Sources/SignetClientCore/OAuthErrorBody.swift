import SignetWire

/// An OAuth error response body as a client receives it: the code as sent (which may be one
/// Signet does not know) and the optional description.
public struct OAuthErrorBody: Sendable, Equatable {
    /// The `error` member exactly as sent.
    public let error: String
    /// `error_description`, if any.
    public let errorDescription: String?

    /// Creates a body.
    public init(error: String, errorDescription: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
    }

    /// The registered code, when `error` is one Signet knows.
    public var code: OAuthErrorCode? { OAuthErrorCode(rawValue: error) }

    /// As a SignetWire `OAuthError` when the code is registered.
    public var oauthError: OAuthError? { code.map { OAuthError($0, errorDescription) } }
}
