/// A response from an upstream provider: status, headers with lowercased names, body bytes.
public struct OutboundResponse: Sendable {
    /// The HTTP status.
    public let status: Int
    /// Header values by lowercased name (repeated headers joined with ", " by URLSession).
    public let headers: [String: String]
    /// The body, at most the client's size limit.
    public let body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The media type of `content-type`, lowercased and without parameters.
    public var mediaType: String? {
        guard let value = headers["content-type"], let first = value.split(separator: ";").first else { return nil }
        return first.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Returns self when the status is 2xx.
    ///
    /// - Throws: `OutboundError.badStatus` otherwise.
    public func requireSuccess() throws(OutboundError) -> OutboundResponse {
        guard (200..<300).contains(status) else { throw .badStatus(status) }
        return self
    }
}
