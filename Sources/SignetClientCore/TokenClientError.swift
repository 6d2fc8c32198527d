/// Why a token endpoint call failed.
public enum TokenClientError: Error, Sendable, Equatable {
    /// The server answered with a registered OAuth error (RFC 6749 §5.2) and this HTTP status.
    case oauth(OAuthErrorBody, status: Int)
    /// The HTTP call failed.
    case transport(OutboundError)
    /// The response was not a valid token response (or error body); no content is kept.
    case malformedResponse(status: Int)
}
