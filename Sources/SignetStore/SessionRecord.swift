import Foundation
import SignetMacros

/// A browser SSO session.
@MemberwiseInit
public struct SessionRecord: Sendable, Equatable {
    /// Keyed hash of the session cookie value.
    public var idHash: [UInt8]
    /// The signed-in user.
    public var userID: String
    /// When the session started.
    public var createdAt: Date
    /// When the session was last used.
    public var lastSeenAt: Date
    /// When the session ends if not used again.
    public var idleExpiresAt: Date
    /// When the session ends regardless of use.
    public var absoluteExpiresAt: Date
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    /// Authentication methods (`amr`), e.g. `pwd`, `fed`.
    public var amr: [String]
    /// When the session was ended (sign-out), or nil.
    public var endedAt: Date? = nil

    /// Whether the session is usable at `now`.
    public func isActive(at now: Date) -> Bool {
        endedAt == nil && now < idleExpiresAt && now < absoluteExpiresAt
    }
}
