import Foundation

/// A pending authorization request loaded by its handle, with its client.
public struct PendingRequest: Sendable {
    /// The `sgq_` handle the browser carries.
    public let handle: String
    /// The checked request.
    public let request: AuthorizationRequest
    /// The client that made it.
    public let client: Client
    /// When `/authorize` received it.
    public let createdAt: Date

    /// Creates the value.
    public init(handle: String, request: AuthorizationRequest, client: Client, createdAt: Date) {
        self.handle = handle
        self.request = request
        self.client = client
        self.createdAt = createdAt
    }
}
