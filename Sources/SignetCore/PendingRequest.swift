import Foundation
import SignetMacros

/// A pending authorization request loaded by its handle, with its client.
@MemberwiseInit
public struct PendingRequest: Sendable {
    /// The `sgq_` handle the browser carries.
    public let handle: String
    /// The checked request.
    public let request: AuthorizationRequest
    /// The client that made it.
    public let client: Client
    /// When `/authorize` received it.
    public let createdAt: Date
}
