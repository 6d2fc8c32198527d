import Foundation
import SignetCrypto
import SignetStore

/// Browser SSO sessions: the `sgs_` cookie value, its stored keyed hash, and the idle and absolute
/// timeouts of `ServerPolicy`.
public struct SessionManager: Sendable {
    let sessions: any SessionStore
    let users: any UserStore
    let tokens: OpaqueTokens
    let auditor: Auditor
    let clock: any Clock
    /// The idle and absolute timeouts.
    let policy: ServerPolicy

    /// The public session id for a stored hash.
    public static func publicID(idHash: [UInt8]) -> String { Base64URL.encode(idHash) }

    /// The session a cookie value names, if it is usable now: known, not ended, inside both
    /// timeouts, and its user exists and is not disabled. Does not extend the idle timeout.
    public func active(token: String?) throws -> ActiveSession? {
        guard let token, tokens.hasShape(token, of: .session) else { return nil }
        let now = clock.now
        guard let record = try sessions.session(idHash: tokens.hash(token), now: now),
              record.isActive(at: now) else { return nil }
        guard let user = try users.user(id: record.userID), user.disabledAt == nil else { return nil }
        return ActiveSession(record: record, user: user)
    }

    /// Records use of the session: the idle timeout starts again (clamped to the absolute one).
    /// Returns the updated session, or nil if it ended meanwhile.
    ///
    /// The store is written only when that moves the idle expiry by at least `touchInterval`
    /// (and `lastSeenAt` with it): a session used many times a minute is written once a minute, not
    /// at every authorization (each write is a commit, and with `database.synchronous` FULL a
    /// sync). So the idle timeout may run out up to `touchInterval` sooner than after the very last
    /// use, never later; `session` is returned as it is when nothing is written.
    public func touch(_ session: ActiveSession) throws -> ActiveSession? {
        let now = clock.now
        let idle = now.addingTimeInterval(TimeInterval(policy.sessionIdle))
        let extended = min(idle, session.record.absoluteExpiresAt)
        if extended.timeIntervalSince(session.record.idleExpiresAt) < TimeInterval(Self.touchInterval(idle: policy.sessionIdle)) {
            return session
        }
        guard let record = try sessions.touchSession(idHash: session.record.idHash, now: now, idleExpiresAt: idle) else {
            return nil
        }
        return ActiveSession(record: record, user: session.user)
    }

    /// How far a use must move the idle expiry before `touch` writes it: a tenth of the idle
    /// timeout, at most 60 seconds (`lifetimes.session_idle` is at least 60, so at least 6).
    public static func touchInterval(idle: Int) -> Int { max(1, min(60, idle / 10)) }

    /// Starts a session for a sign-in the gate admitted (`SignInGate`: the only maker of an
    /// `Admission`). Returns the cookie value (only its hash is stored) and the session.
    public func start(_ admission: Admission) throws -> (token: String, session: ActiveSession) {
        let started = try insert(user: admission.user, amr: admission.amr, authTime: admission.authTime)
        auditor.record("session_started", actor: "user:\(admission.user.id)", subject: admission.user.id,
                       method: admission.amr.joined(separator: " "), detail: ["way": .string(admission.way.rawValue)])
        return started
    }

    /// A new session in place of `session` for the same browser (a password change ends every
    /// session): the same user, methods, `auth_time` and absolute end, so nothing looks fresher
    /// or lasts longer than it did.
    public func renew(_ session: ActiveSession) throws -> (token: String, session: ActiveSession) {
        let started = try insert(user: session.user, amr: session.record.amr, authTime: session.record.authTime,
                                 absolute: session.record.absoluteExpiresAt)
        auditor.record("session_renewed", actor: "user:\(session.user.id)", subject: session.user.id)
        return started
    }

    private func insert(user: UserRecord, amr: [String], authTime: Date, absolute: Date? = nil) throws -> (token: String, session: ActiveSession) {
        let now = clock.now
        let token = tokens.make(.session)
        let absolute = absolute ?? now.addingTimeInterval(TimeInterval(policy.sessionAbsolute))
        let idle = min(now.addingTimeInterval(TimeInterval(policy.sessionIdle)), absolute)
        let record = SessionRecord(idHash: tokens.hash(token), userID: user.id, createdAt: now, lastSeenAt: now,
                                   idleExpiresAt: idle, absoluteExpiresAt: absolute, authTime: authTime, amr: amr)
        try sessions.insertSession(record)
        return (token, ActiveSession(record: record, user: user))
    }

    /// Ends the session a cookie value names. Returns true if an open session was ended.
    @discardableResult
    public func end(token: String?) throws -> Bool {
        guard let token, tokens.hasShape(token, of: .session) else { return false }
        return try sessions.endSession(idHash: tokens.hash(token), now: clock.now)
    }
}

extension SessionManager {
    /// Creates the manager.
    public init(server: AuthorizationServer) {
        self.init(sessions: server.storage.sessions, users: server.storage.users, tokens: server.tokens,
                  auditor: server.auditor, clock: server.clock, policy: server.policy)
    }
}
