/// Why an outbound call to an upstream provider failed. Carries no URL, header or body: those
/// may contain codes and tokens.
public enum OutboundError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call did not finish within the time limit.
    case timeout
    /// The response body exceeded the size limit (the transfer was cancelled).
    case tooLarge
    /// The provider answered with a redirect; outbound calls never follow redirects.
    case redirected
    /// The connection failed (refused, reset, DNS, TLS); a short reason without the URL.
    case transport(String)
    /// The provider answered with an unexpected status (raised by callers that need 2xx).
    case badStatus(Int)

    /// A log-safe description.
    public var description: String {
        switch self {
        case .timeout: "timed out"
        case .tooLarge: "response too large"
        case .redirected: "redirect refused"
        case .transport(let reason): "transport error: \(reason)"
        case .badStatus(let status): "unexpected HTTP status \(status)"
        }
    }
}
