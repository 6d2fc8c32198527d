import Foundation

/// Browser SSO sessions.
public protocol SessionStore: Sendable {
    /// Stores a new session. Throws `.duplicate` if the hash exists.
    func insertSession(_ session: SessionRecord) throws

    /// The session, or nil if unknown, ended, idle-expired or past its absolute expiry at `now`.
    func session(idHash: [UInt8], now: Date) throws -> SessionRecord?

    /// Records use of an active session: `lastSeenAt = now`, `idleExpiresAt` = the given time,
    /// clamped to the absolute expiry. Returns the updated session, or nil if it was not active.
    func touchSession(idHash: [UInt8], now: Date, idleExpiresAt: Date) throws -> SessionRecord?

    /// Ends the session at `now`; returns false if it was unknown or already ended.
    @discardableResult
    func endSession(idHash: [UInt8], now: Date) throws -> Bool

    /// The user's sessions that are usable at `now`, most recently used first.
    func activeSessions(userID: String, now: Date) throws -> [SessionRecord]

    /// Ends every open session of a user; returns how many.
    @discardableResult
    func endSessions(userID: String, now: Date) throws -> Int
}
