import Foundation

/// One access-log record. It deliberately has no query string, headers or body: those carry
/// codes, tokens and cookies.
public struct AccessLogEntry: Sendable {
    /// Request method.
    public let method: HTTPMethod
    /// Percent-decoded path, without the query.
    public let path: String
    /// Response status.
    public let status: Int
    /// Time from the end of the request headers to the response being queued.
    public let durationSeconds: Double
    /// The request id (also in the response's `X-Request-Id`).
    public let requestID: String
    /// The client's address (the trusted client address), or the peer's when the request could not be parsed.
    public let clientAddress: String
}
