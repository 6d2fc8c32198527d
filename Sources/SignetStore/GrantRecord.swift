import Foundation
import SignetMacros

/// A grant family: everything issued from one authorization (its code, access and refresh tokens).
@MemberwiseInit
public struct GrantRecord: Sendable, Equatable {
    /// Family id; also the code's `grantID`, and carried by access tokens so they can be checked.
    public var grantID: String
    /// The client the grant belongs to.
    public var clientID: String
    /// The user (`sub`).
    public var userID: String
    /// Granted scope, space separated; refreshes may narrow it, never widen it.
    public var scope: String
    /// When the grant was made.
    public var createdAt: Date
    /// When the family ends no matter how often it is refreshed.
    public var absoluteExpiresAt: Date
    /// When the family was revoked, or nil.
    public var revokedAt: Date? = nil
    /// Why the family was revoked (`code_replay`, `refresh_token_reuse`, `user_disabled`, ...).
    public var revokeReason: String? = nil
    /// The SSO session the grant came from, if any.
    public var sessionID: String? = nil
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    /// RFC 8707 resources granted (the access tokens' audiences); empty: the issuer. A refresh
    /// may narrow them, never widen them (RFC 8707 §2).
    public var resources: [String] = []
    /// The authentication methods of the sign-in (`amr`, RFC 8176 values), carried into the ID
    /// tokens of every refresh. A typed column, so a refresh parses no JSON.
    public var amr: [String] = []
    /// The organization the authorization chose (scope `organization`), or nil: the family's
    /// tokens carry its claims while the user is still a member. A typed column, like `amr`.
    public var organizationID: String? = nil

    /// Whether tokens of this family are valid at `now`.
    public func isActive(at now: Date) -> Bool {
        revokedAt == nil && now < absoluteExpiresAt
    }
}
