import Foundation

extension InMemoryStorage: RefreshTokenStore {
    /// See `RefreshTokenStore.createGrant(_:)`.
    public func createGrant(_ grant: GrantRecord) throws {
        try state.withLock { s in
            guard s.grants[grant.grantID] == nil else { throw StoreError.duplicate }
            s.grants[grant.grantID] = grant
        }
    }

    /// See `RefreshTokenStore.grant(id:)`.
    public func grant(id: String) throws -> GrantRecord? {
        state.withLock { $0.grants[id] }
    }

    /// See `RefreshTokenStore.isGrantActive(id:now:)`.
    public func isGrantActive(id: String, now: Date) throws -> Bool {
        state.withLock { $0.grants[id]?.isActive(at: now) ?? false }
    }

    /// See `RefreshTokenStore.insertRefreshToken(_:)`.
    public func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try state.withLock { s in
            guard s.refreshTokens[token.tokenHash] == nil else { throw StoreError.duplicate }
            guard s.grants[token.grantID] != nil else { throw StoreError.notFound }
            s.refreshTokens[token.tokenHash] = token
        }
    }

    /// See `RefreshTokenStore.refreshToken(hash:)`.
    public func refreshToken(hash: [UInt8]) throws -> RefreshTokenRecord? {
        state.withLock { $0.refreshTokens[hash] }
    }

    /// See `RefreshTokenStore.rotateRefreshToken(tokenHash:clientID:successorHash:successorExpiresAt:now:graceSeconds:)`.
    public func rotateRefreshToken(tokenHash: [UInt8], clientID: String, successorHash: [UInt8],
                                   successorExpiresAt: Date, now: Date, graceSeconds: Int) throws -> RotationResult {
        try state.withLock { s in
            guard var token = s.refreshTokens[tokenHash], var grant = s.grants[token.grantID] else {
                return .notFound
            }
            guard grant.clientID == clientID else { return .clientMismatch }
            guard grant.revokedAt == nil else { return .revoked }
            guard now < grant.absoluteExpiresAt else { return .expired }

            if let rotatedAt = token.rotatedAt {
                if let nextHash = token.successorHash, let next = s.refreshTokens[nextHash], next.rotatedAt == nil,
                   now.timeIntervalSince(rotatedAt) <= Double(graceSeconds) {
                    return .graceRetry(Rotation(grant: grant, presented: token, successor: next))
                }
                grant.revokedAt = now
                grant.revokeReason = RevokeReason.refreshTokenReuse
                s.grants[grant.grantID] = grant
                return .reuseDetected(grant)
            }
            guard now < token.expiresAt else { return .expired }
            guard s.refreshTokens[successorHash] == nil else { throw StoreError.duplicate }

            let successor = RefreshTokenRecord(
                tokenHash: successorHash, grantID: grant.grantID, parentHash: tokenHash, scope: token.scope,
                createdAt: now, expiresAt: min(successorExpiresAt, grant.absoluteExpiresAt))
            token.rotatedAt = now
            token.successorHash = successorHash
            s.refreshTokens[tokenHash] = token
            s.refreshTokens[successorHash] = successor
            return .rotated(Rotation(grant: grant, presented: token, successor: successor))
        }
    }

    /// See `RefreshTokenStore.revokeGrant(id:reason:now:)`.
    public func revokeGrant(id: String, reason: String, now: Date) throws -> Bool {
        state.withLock { s in
            guard let grant = s.grants[id], grant.revokedAt == nil else { return false }
            s.grants[id]?.revokedAt = now
            s.grants[id]?.revokeReason = reason
            return true
        }
    }

    /// See `RefreshTokenStore.revokeGrant(issuedFrom:reason:now:)`.
    public func revokeGrant(issuedFrom code: AuthorizationCodeRecord, reason: String, now: Date) throws {
        state.withLock { s in
            if let grant = s.grants[code.grantID] {
                if grant.revokedAt == nil {
                    s.grants[code.grantID]?.revokedAt = now
                    s.grants[code.grantID]?.revokeReason = reason
                }
            } else {
                s.grants[code.grantID] = GrantRecord(
                    grantID: code.grantID, clientID: code.clientID, userID: code.userID, scope: code.scope,
                    createdAt: now, absoluteExpiresAt: now, revokedAt: now, revokeReason: reason,
                    sessionID: code.sessionID, authTime: code.authTime)
            }
        }
    }

    /// See `RefreshTokenStore.revokeGrants(userID:reason:now:)`.
    public func revokeGrants(userID: String, reason: String, now: Date) throws -> Int {
        revokeGrants(reason: reason, now: now) { $0.userID == userID }
    }

    /// See `RefreshTokenStore.revokeGrants(sessionID:reason:now:)`.
    public func revokeGrants(sessionID: String, reason: String, now: Date) throws -> Int {
        revokeGrants(reason: reason, now: now) { $0.sessionID == sessionID }
    }

    private func revokeGrants(reason: String, now: Date, where matches: (GrantRecord) -> Bool) -> Int {
        state.withLock { s in
            let ids = s.grants.values.filter { $0.revokedAt == nil && matches($0) }.map(\.grantID)
            for id in ids {
                s.grants[id]?.revokedAt = now
                s.grants[id]?.revokeReason = reason
            }
            return ids.count
        }
    }
}
