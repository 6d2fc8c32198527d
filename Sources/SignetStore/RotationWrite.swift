import Foundation

/// What a store writes, inside the transaction that read the rows, after `RefreshRotation.decide`.
public enum RotationWrite: Sendable, Equatable {
    /// Nothing.
    case none
    /// Mark `presentedHash` rotated at `at` with the successor's hash, then insert `successor`.
    case rotate(presentedHash: [UInt8], at: Date, successor: RefreshTokenRecord)
    /// Revoke the family (only if it is not revoked yet; the first reason is kept).
    case revokeGrant(id: String, reason: String, at: Date)
}
