import Foundation
import SignetStore

extension PostgresStorage: RefreshTokenStore {
    static let grantColumns = """
        grant_id, client_id, user_id, scope, created_at, absolute_expires_at, revoked_at, revoke_reason,
        session_id, auth_time, payload, resources
        """

    static func decodeGrant(_ row: PostgresRow) throws -> GrantRecord {
        GrantRecord(
            grantID: try row.text(0), clientID: try row.text(1), userID: try row.text(2), scope: try row.text(3),
            createdAt: try row.date(4), absoluteExpiresAt: try row.date(5), revokedAt: try row.optionalDate(6),
            revokeReason: row.optionalText(7), sessionID: row.optionalText(8), authTime: try row.date(9),
            payload: try row.text(10), resources: try row.stringArray(11))
    }

    static let tokenColumns = """
        token_hash, grant_id, parent_hash, scope, created_at, expires_at, rotated_at, successor_hash
        """

    static func decodeToken(_ row: PostgresRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: try row.blob(0), grantID: try row.text(1), parentHash: try row.optionalBlob(2),
            scope: try row.text(3), createdAt: try row.date(4), expiresAt: try row.date(5),
            rotatedAt: try row.optionalDate(6), successorHash: try row.optionalBlob(7))
    }

    /// See `RefreshTokenStore.createGrant(_:)`.
    public func createGrant(_ grant: GrantRecord) throws {
        try withConnection { db in try Self.insertGrant(grant, db) }
    }

    static func insertGrant(_ grant: GrantRecord, _ db: PostgresConnection) throws {
        try db.run("INSERT INTO grants (\(grantColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)", [
            grant.grantID, grant.clientID, grant.userID, grant.scope, grant.createdAt, grant.absoluteExpiresAt,
            grant.revokedAt, grant.revokeReason, grant.sessionID, grant.authTime, grant.payload,
            try StringList.json(grant.resources),
        ])
    }

    /// See `RefreshTokenStore.grant(id:)`.
    public func grant(id: String) throws -> GrantRecord? {
        try withConnection { db in try db.one("SELECT \(Self.grantColumns) FROM grants WHERE grant_id = $1", [id], Self.decodeGrant) }
    }

    /// See `RefreshTokenStore.isGrantActive(id:now:)`.
    public func isGrantActive(id: String, now: Date) throws -> Bool {
        try withConnection { db in
            try db.one("""
                SELECT 1 FROM grants WHERE grant_id = $1 AND revoked_at IS NULL AND absolute_expires_at > $2
                """, [id, now]) { _ in true } ?? false
        }
    }

    /// See `RefreshTokenStore.insertRefreshToken(_:)`.
    public func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try withConnection { db in try Self.insertToken(token, db) }
    }

    static func insertToken(_ token: RefreshTokenRecord, _ db: PostgresConnection) throws {
        try db.run("INSERT INTO refresh_tokens (\(tokenColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", [
            token.tokenHash, token.grantID, token.parentHash, token.scope, token.createdAt, token.expiresAt,
            token.rotatedAt, token.successorHash,
        ])
    }

    /// See `RefreshTokenStore.refreshToken(hash:)`.
    public func refreshToken(hash: [UInt8]) throws -> RefreshTokenRecord? {
        try withConnection { db in
            try db.one("SELECT \(Self.tokenColumns) FROM refresh_tokens WHERE token_hash = $1", [hash], Self.decodeToken)
        }
    }

    /// See `RefreshTokenStore.rotateRefreshToken(tokenHash:clientID:successorHash:successorExpiresAt:now:graceSeconds:)`.
    ///
    /// One transaction that locks the presented token's row and then its grant's row
    /// (`SELECT … FOR UPDATE`, always in that order), so the state read is the state written
    /// against: a racing rotation of the same token waits, then sees it rotated (a grace retry or
    /// reuse); a racing revocation of the grant waits or is seen.
    public func rotateRefreshToken(tokenHash: [UInt8], clientID: String, successorHash: [UInt8],
                                   successorExpiresAt: Date, now: Date, graceSeconds: Int) throws -> RotationResult {
        try withConnection { db in
            try db.transaction { () throws -> RotationResult in
                guard var token = try db.one(
                          "SELECT \(Self.tokenColumns) FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE",
                          [tokenHash], Self.decodeToken),
                      var grant = try db.one("SELECT \(Self.grantColumns) FROM grants WHERE grant_id = $1 FOR UPDATE",
                                             [token.grantID], Self.decodeGrant) else {
                    return .notFound
                }
                guard grant.clientID == clientID else { return .clientMismatch }
                guard grant.revokedAt == nil else { return .revoked }
                guard now < grant.absoluteExpiresAt else { return .expired }

                if let rotatedAt = token.rotatedAt {
                    if now.timeIntervalSince(rotatedAt) <= Double(graceSeconds), let nextHash = token.successorHash,
                       let next = try db.one("SELECT \(Self.tokenColumns) FROM refresh_tokens WHERE token_hash = $1",
                                             [nextHash], Self.decodeToken),
                       next.rotatedAt == nil {
                        return .graceRetry(Rotation(grant: grant, presented: token, successor: next))
                    }
                    try db.run("UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE grant_id = $3",
                               [now, RevokeReason.refreshTokenReuse, grant.grantID])
                    grant.revokedAt = now
                    grant.revokeReason = RevokeReason.refreshTokenReuse
                    return .reuseDetected(grant)
                }
                guard now < token.expiresAt else { return .expired }

                let successor = RefreshTokenRecord(
                    tokenHash: successorHash, grantID: grant.grantID, parentHash: tokenHash, scope: token.scope,
                    createdAt: now, expiresAt: min(successorExpiresAt, grant.absoluteExpiresAt))
                let changed = try db.run("""
                    UPDATE refresh_tokens SET rotated_at = $1, successor_hash = $2
                    WHERE token_hash = $3 AND rotated_at IS NULL
                    """, [now, successorHash, tokenHash])
                guard changed == 1 else { throw StoreError.backend("refresh token changed under its row lock") }
                try Self.insertToken(successor, db)
                token.rotatedAt = now
                token.successorHash = successorHash
                return .rotated(Rotation(grant: grant, presented: token, successor: successor))
            }
        }
    }

    /// See `RefreshTokenStore.revokeGrant(id:reason:now:)`.
    public func revokeGrant(id: String, reason: String, now: Date) throws -> Bool {
        try withConnection { db in
            try db.run("UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE grant_id = $3 AND revoked_at IS NULL",
                       [now, reason, id]) == 1
        }
    }

    /// See `RefreshTokenStore.revokeGrant(issuedFrom:reason:now:)`.
    public func revokeGrant(issuedFrom code: AuthorizationCodeRecord, reason: String, now: Date) throws {
        try withConnection { db in
            // One upsert: a racing insert of the same grant waits, then takes the DO UPDATE branch.
            try db.run("""
                INSERT INTO grants (\(Self.grantColumns)) VALUES ($1, $2, $3, $4, $5, $5, $5, $6, $7, $8, '{}', '[]')
                ON CONFLICT (grant_id) DO UPDATE SET
                    revoked_at = COALESCE(grants.revoked_at, excluded.revoked_at),
                    revoke_reason = COALESCE(grants.revoke_reason, excluded.revoke_reason)
                """, [code.grantID, code.clientID, code.userID, code.scope, now, reason, code.sessionID, code.authTime])
        }
    }

    /// See `RefreshTokenStore.revokeGrants(userID:reason:now:)`.
    public func revokeGrants(userID: String, reason: String, now: Date) throws -> Int {
        try withConnection { db in
            try db.run("UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE user_id = $3 AND revoked_at IS NULL",
                       [now, reason, userID])
        }
    }

    /// See `RefreshTokenStore.revokeGrants(sessionID:reason:now:)`.
    public func revokeGrants(sessionID: String, reason: String, now: Date) throws -> Int {
        try withConnection { db in
            try db.run("UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE session_id = $3 AND revoked_at IS NULL",
                       [now, reason, sessionID])
        }
    }
}
