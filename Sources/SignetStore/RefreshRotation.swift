import Foundation

/// The refresh-token rotation rule (RFC 9700 §4.14.2) as pure functions of the rows a store read.
/// Every backend reads the rows, calls `decide` and applies its `RotationWrite`, all in one
/// transaction that locks what it read; the rule itself lives only here.
public enum RefreshRotation {
    /// The successor row `decide` needs besides the presented token, its grant and its user: the
    /// presented token's successor when it was rotated inside the grace window (a retry is only a
    /// retry while that successor is still live), else nil.
    public static func successorToRead(_ token: RefreshTokenRecord, _ request: RotationRequest) -> [UInt8]? {
        guard let rotatedAt = token.rotatedAt,
              request.now.timeIntervalSince(rotatedAt) <= Double(request.graceSeconds) else { return nil }
        return token.successorHash
    }

    /// The outcome of presenting `token` (nil: no token has the hash) of `grant` (nil: the family
    /// is gone) whose user `userDisabled`, with `successor` as read for `successorToRead`, and what
    /// to write for it. See `RefreshTokenStore.rotateRefreshToken` for the contract.
    public static func decide(_ request: RotationRequest, token: RefreshTokenRecord?, grant: GrantRecord?,
                              userDisabled: Bool, successor: RefreshTokenRecord?) -> (RotationResult, RotationWrite) {
        guard let token, var grant else { return (.notFound, .none) }
        // Another client's token: nothing changes, so a leaked token cannot revoke someone else's family.
        guard grant.clientID == request.clientID else { return (.clientMismatch, .none) }
        guard grant.revokedAt == nil else { return (.revoked, .none) }
        guard request.now < grant.absoluteExpiresAt else { return (.expired, .none) }
        if userDisabled {
            // Disabling a user revokes its families (UserService); one that raced the disable is
            // revoked here, so re-enabling the user never revives it.
            grant.revokedAt = request.now
            grant.revokeReason = RevokeReason.userDisabled
            return (.userDisabled(grant), .revokeGrant(id: grant.grantID, reason: RevokeReason.userDisabled, at: request.now))
        }
        if token.rotatedAt != nil {
            // RFC 9700 §4.14.2: a retry within the grace window gets the live successor again;
            // any other reuse of a rotated token revokes the family.
            if successorToRead(token, request) != nil, let successor, successor.tokenHash == token.successorHash,
               successor.rotatedAt == nil {
                return (.graceRetry(Rotation(grant: grant, presented: token, successor: successor)), .none)
            }
            grant.revokedAt = request.now
            grant.revokeReason = RevokeReason.refreshTokenReuse
            return (.reuseDetected(grant),
                    .revokeGrant(id: grant.grantID, reason: RevokeReason.refreshTokenReuse, at: request.now))
        }
        guard request.now < token.expiresAt else { return (.expired, .none) }
        let next = RefreshTokenRecord(
            tokenHash: request.successorHash, grantID: grant.grantID, parentHash: token.tokenHash, scope: token.scope,
            createdAt: request.now, expiresAt: min(request.successorExpiresAt, grant.absoluteExpiresAt))
        var presented = token
        presented.rotatedAt = request.now
        presented.successorHash = request.successorHash
        return (.rotated(Rotation(grant: grant, presented: presented, successor: next)),
                .rotate(presentedHash: token.tokenHash, at: request.now, successor: next))
    }
}
