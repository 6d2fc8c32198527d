import Foundation
import SignetMacros

/// A refresh-token presentation: what the caller asks a `RefreshTokenStore` to do.
@MemberwiseInit
public struct RotationRequest: Sendable, Equatable {
    /// Keyed hash of the presented token.
    public var tokenHash: [UInt8]
    /// The authenticated client.
    public var clientID: String
    /// Keyed hash of the successor the caller derived from the presented token.
    public var successorHash: [UInt8]
    /// When the successor expires if unused (clamped to the family's absolute expiry).
    public var successorExpiresAt: Date
    /// The time of the request.
    public var now: Date
    /// How long after a rotation the same token may be presented again as a retry.
    public var graceSeconds: Int
}
