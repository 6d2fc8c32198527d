import Foundation

/// A browser SSO session.
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
    public var endedAt: Date?

    /// Creates a record.
    public init(idHash: [UInt8], userID: String, createdAt: Date, lastSeenAt: Date, idleExpiresAt: Date,
                absoluteExpiresAt: Date, authTime: Date, amr: [String], endedAt: Date? = nil) {
        self.idHash = idHash
        self.userID = userID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.idleExpiresAt = idleExpiresAt
        self.absoluteExpiresAt = absoluteExpiresAt
        self.authTime = authTime
        self.amr = amr
        self.endedAt = endedAt
    }

    /// Whether the session is usable at `now`.
    public func isActive(at now: Date) -> Bool {
        endedAt == nil && now < idleExpiresAt && now < absoluteExpiresAt
    }
}
