import Foundation
import SignetMacros

/// One refresh token of a grant family, stored as a keyed hash.
@MemberwiseInit
public struct RefreshTokenRecord: Sendable, Equatable {
    /// Keyed hash of the token.
    public var tokenHash: [UInt8]
    /// The family.
    public var grantID: String
    /// Hash of the token this one replaced, or nil for the first of the family.
    public var parentHash: [UInt8]? = nil
    /// Scope of the token, space separated (RFC 6749 §6: the same as the token it replaced).
    public var scope: String
    /// When the token was issued.
    public var createdAt: Date
    /// When the token expires if unused.
    public var expiresAt: Date
    /// When the token was rotated (used), or nil while it is the family's live token.
    public var rotatedAt: Date? = nil
    /// Hash of the token that replaced it, or nil.
    public var successorHash: [UInt8]? = nil
}
