import SignetStore

/// A usable SSO session: not ended, inside its idle and absolute timeouts, and its user enabled.
/// Only `SessionManager` makes one (its memberwise initializer is internal), after those checks.
public struct ActiveSession: Sendable, Equatable {
    /// The stored session.
    public let record: SessionRecord
    /// The signed-in user.
    public let user: UserRecord

    /// The public session id (`sid` claim, `sessionID` of codes and grants): base64url of the
    /// session's keyed hash, so the cookie value itself never leaves the browser.
    public var publicID: String { SessionManager.publicID(idHash: record.idHash) }
}
