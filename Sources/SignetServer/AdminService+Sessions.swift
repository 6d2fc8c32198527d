import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetStore

/// A user's sessions, grants, second factors and consents, as the admin API and the console
/// see and end them. Ending goes through the same store calls as the account page and
/// `/revoke`, so a revoked grant's refresh token is refused at `/token` with `invalid_grant`.
extension AdminService {
    // MARK: sessions

    /// A page of the user's active sessions, ordered by their public id (the base64url of the
    /// cookie's keyed hash: never the cookie itself).
    func sessions(_ user: UserRecord, limit: Int, cursor: String?) throws -> (items: [JSONValue], next: String?) {
        let now = environment.clock.now
        let records = try environment.storage.sessions.activeSessions(userID: user.id, now: now)
            .map { (id: SessionManager.publicID(idHash: $0.idHash), record: $0) }.sorted { $0.id < $1.id }
        return Self.page(records, id: \.id, limit: limit, cursor: cursor) { Self.json($0.record, id: $0.id) }
    }

    /// Ends one active session of the user and revokes the grants signed in through it (RFC 9700
    /// §4.14.2: the refresh tokens of that sign-in stop working). 404 for another user's session.
    func endSession(_ user: UserRecord, sessionID: String) throws -> (sessions: Int, grants: Int) {
        let now = environment.clock.now
        guard let hash = Base64URL.decode(sessionID), hash.count == 32,
              let record = try environment.storage.sessions.session(idHash: hash, now: now), record.userID == user.id else {
            throw AdminError.notFound("session")
        }
        let ended = try environment.storage.sessions.endSession(idHash: hash, now: now) ? 1 : 0
        let grants = try environment.storage.refreshTokens.revokeGrants(sessionID: sessionID, reason: RevokeReason.adminRevoked, now: now)
        audit("session_ended", subject: user.id, detail: ["sessions": .int(Int64(ended)), "grants": .int(Int64(grants))])
        return (ended, grants)
    }

    static func json(_ session: SessionRecord, id: String) -> JSONValue {
        .object([
            "id": .string(id), "created_at": .string(stamp(session.createdAt)), "last_seen_at": .string(stamp(session.lastSeenAt)),
            "idle_expires_at": .string(stamp(session.idleExpiresAt)), "expires_at": .string(stamp(session.absoluteExpiresAt)),
            "auth_time": .string(stamp(session.authTime)), "amr": .array(session.amr.map(JSONValue.string)),
        ])
    }

    // MARK: grants

    /// A page of the user's active grant families that hold a refresh token, ordered by id.
    func grants(_ user: UserRecord, limit: Int, cursor: String?) throws -> (items: [JSONValue], next: String?) {
        let grants = try environment.storage.refreshTokens.activeRefreshGrants(userID: user.id, now: environment.clock.now)
            .sorted { $0.grantID < $1.grantID }
        return Self.page(grants, id: \.grantID, limit: limit, cursor: cursor, json: Self.json)
    }

    /// Revokes one active grant family of the user: its refresh tokens, and its access tokens
    /// wherever the grant is checked (RFC 7009 §2.1). 404 for another user's or an ended grant.
    func revokeGrant(_ user: UserRecord, grantID: String) throws {
        let now = environment.clock.now
        guard let grant = try environment.storage.refreshTokens.grant(id: grantID), grant.userID == user.id, grant.isActive(at: now) else {
            throw AdminError.notFound("grant")
        }
        try environment.storage.refreshTokens.revokeGrant(id: grantID, reason: RevokeReason.adminRevoked, now: now)
        audit("grant_revoked", subject: user.id, client: grant.clientID)
    }

    static func json(_ grant: GrantRecord) -> JSONValue {
        .object([
            "id": .string(grant.grantID), "client": .string(grant.clientID), "scope": .string(grant.scope),
            "created_at": .string(stamp(grant.createdAt)), "expires_at": .string(stamp(grant.absoluteExpiresAt)),
            "auth_time": .string(stamp(grant.authTime)), "amr": .array(grant.amr.map(JSONValue.string)),
            "resources": .array(grant.resources.map(JSONValue.string)),
            "session": grant.sessionID.map(JSONValue.string) ?? .null,
        ])
    }

    // MARK: second factors

    /// The user's second factors: the authenticator app's state and the unused recovery codes.
    func secondFactors(_ user: UserRecord) throws -> JSONValue {
        let store = environment.storage.secondFactors
        let factor = try store.totpFactor(userID: user.id)
        let totp = factor.map { $0.isConfirmed ? "confirmed" : "pending" } ?? "none"
        return .object(["totp": .string(totp), "recovery_codes": .int(Int64(try store.unusedRecoveryCodes(userID: user.id)))])
    }

    /// Removes the user's authenticator app and recovery codes (the user lost both): the next
    /// sign-in asks for no second factor until the user enrols again. Audited
    /// `second_factors_reset`, with whether there was a factor.
    func resetSecondFactors(_ user: UserRecord) throws -> JSONValue {
        let removed = try environment.storage.secondFactors.removeSecondFactors(userID: user.id)
        audit("second_factors_reset", subject: user.id, detail: ["removed": .bool(removed)])
        return try secondFactors(user)
    }

    // MARK: consents

    /// A page of the user's remembered consents, ordered by client id.
    func consents(_ user: UserRecord, limit: Int, cursor: String?) throws -> (items: [JSONValue], next: String?) {
        Self.page(try environment.storage.consents.consents(userID: user.id), id: \.clientID, limit: limit, cursor: cursor, json: Self.json)
    }

    /// Forgets the user's consent to one client: the next authorization asks again (grants
    /// already made stay until revoked). 404 when there is none.
    func revokeConsent(_ user: UserRecord, clientID: String) throws {
        guard try environment.storage.consents.revokeConsent(userID: user.id, clientID: clientID) else { throw AdminError.notFound("consent") }
        audit("consent_revoked", subject: user.id, client: clientID)
    }

    static func json(_ consent: ConsentRecord) -> JSONValue {
        .object(["client": .string(consent.clientID), "scopes": .array(consent.scopes.map(JSONValue.string)),
                 "granted_at": .string(stamp(consent.grantedAt))])
    }
}
