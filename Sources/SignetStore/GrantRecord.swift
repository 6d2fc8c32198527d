import Foundation
import SignetMacros

/// A grant family: everything issued from one authorization (its code, access and refresh tokens).
/// Reads of `terms`' fields go through (`grant.userID`).
@MemberwiseInit
@dynamicMemberLookup
public struct GrantRecord: Sendable, Equatable {
    /// Family id; also the code's `grantID`, and carried by access tokens so they can be checked.
    public var grantID: String
    /// What the authorization granted, as its code carried it.
    public var terms: GrantTerms
    /// When the grant was made.
    public var createdAt: Date
    /// When the family ends no matter how often it is refreshed.
    public var absoluteExpiresAt: Date
    /// When the family was revoked, or nil.
    public var revokedAt: Date? = nil
    /// Why the family was revoked (`code_replay`, `refresh_token_reuse`, `user_disabled`, ...).
    public var revokeReason: String? = nil

    /// A field of `terms`, read or written.
    public subscript<Value>(dynamicMember field: WritableKeyPath<GrantTerms, Value>) -> Value {
        get { terms[keyPath: field] }
        set { terms[keyPath: field] = newValue }
    }

    /// Whether tokens of this family are valid at `now`.
    public func isActive(at now: Date) -> Bool {
        revokedAt == nil && now < absoluteExpiresAt
    }
}
