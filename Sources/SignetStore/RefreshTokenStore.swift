import Foundation

/// Grant families and their rotating refresh tokens (RFC 9700 §4.14.2).
///
/// A family is created when a code is redeemed; every token issued from it carries its id, so
/// revoking the family (code replay, refresh-token reuse, sign-out, disabled user) invalidates all
/// of them at once, including self-contained access tokens checked with `isGrantActive`.
public protocol RefreshTokenStore: Sendable {
    /// Stores a new family. Throws `.duplicate` if the id exists (including a family revoked by
    /// `revokeGrant(issuedFrom:reason:now:)` before it was created: the code was replayed).
    func createGrant(_ grant: GrantRecord) throws

    /// `createGrant`, and with it the family's first refresh token, in one transaction (one commit,
    /// so one log sync with `synchronous = FULL`): both are stored or neither. Throws as
    /// `createGrant` and `insertRefreshToken` do.
    func createGrant(_ grant: GrantRecord, firstToken: RefreshTokenRecord?) throws

    /// The family with this id, or nil.
    func grant(id: String) throws -> GrantRecord?

    /// Whether the family exists, is not revoked and `now < absoluteExpiresAt`. Cheap.
    func isGrantActive(id: String, now: Date) throws -> Bool

    /// Stores the first refresh token of a family. Throws `.duplicate` if the hash exists in the
    /// family and `.notFound` if the family does not.
    func insertRefreshToken(_ token: RefreshTokenRecord) throws

    /// The token with this hash in the family whose public id is `grantID`, whatever its state,
    /// or nil. `grantID` is the locator the token string carries (`OpaqueTokens.refreshLocator`):
    /// nil for a token issued before migration 19, found by its hash among those alone. A token
    /// asked for under another family (or a new one under nil) is not found.
    func refreshToken(hash: [UInt8], grantID: String?) throws -> RefreshTokenRecord?

    /// Presents a refresh token, in one transaction. The token is found as `refreshToken(hash:grantID:)`
    /// finds it (`grantID`: its string's locator); its successor is stored in the same family.
    /// - unknown hash (or not in the family `grantID` names): `.notFound`; another client's token:
    ///   `.clientMismatch`; nothing changes.
    /// - family revoked: `.revoked`; family past its absolute lifetime: `.expired`.
    /// - the family's user exists and is disabled: revokes the family (reason `user_disabled`) in
    ///   the same transaction and returns `.userDisabled` with the revoked grant.
    /// - token live (never rotated) but `now >= expiresAt`: `.expired`.
    /// - token live: marks it rotated at `now` with `successorHash`, stores the successor (same family
    ///   and scope, parent = the presented token, expiry clamped to the family's absolute expiry),
    ///   and returns `.rotated`.
    /// - token rotated at most `graceSeconds` ago and its successor is still live: `.graceRetry`
    ///   with the stored successor; nothing is written, so there is never a second live chain. The
    ///   caller derives the successor deterministically from the presented token (for example an
    ///   HMAC of it), so it can hand out the same token string again; it must check that
    ///   `rotation.successor.tokenHash == successorHash` before doing so.
    /// - any other rotated token: reuse. Revokes the family (reason `refresh_token_reuse`) in the
    ///   same transaction and returns `.reuseDetected` with the revoked grant.
    /// Of concurrent calls for one live token, exactly one gets `.rotated`. The rule itself is
    /// `RefreshRotation.decide`; a store reads the rows and applies its write.
    func rotateRefreshToken(tokenHash: [UInt8], grantID: String?, clientID: String, successorHash: [UInt8],
                            successorExpiresAt: Date, now: Date, graceSeconds: Int) throws -> RotationResult

    /// `rotateRefreshToken` with a caller's check first: when the presented token and its family
    /// exist and the family is `clientID`'s, `check` is called with both, inside the rotation's
    /// transaction and before anything is decided or written; if it throws, nothing is written
    /// and its error is thrown. (A refresh that narrows its scope or resources is checked against
    /// the family this way, so a refused request leaves the token as it was, with no separate read.)
    /// With `withUser`, a store that can reads the family's user in the same locked read and
    /// returns it in `Rotation.user` (a refresh that issues an ID token needs its claims), so the
    /// caller makes no read of its own after the commit.
    func rotateRefreshToken(tokenHash: [UInt8], grantID: String?, clientID: String, successorHash: [UInt8],
                            successorExpiresAt: Date, now: Date, graceSeconds: Int, withUser: Bool,
                            check: (RefreshTokenRecord, GrantRecord) throws -> Void) throws -> RotationResult

    /// Revokes the family; returns true if this call revoked it, false if it was unknown or
    /// already revoked (the first revocation time and reason are kept).
    @discardableResult
    func revokeGrant(id: String, reason: String, now: Date) throws -> Bool

    /// RFC 6749 §4.1.2: revokes the family of a replayed code. If the family does not exist yet
    /// (the first redemption is still in flight), stores it revoked so that `createGrant` fails.
    func revokeGrant(issuedFrom code: AuthorizationCodeRecord, reason: String, now: Date) throws

    /// The user's families that are active at `now` and hold a refresh token (the apps that can
    /// act for the user without a sign-in), newest first.
    func activeRefreshGrants(userID: String, now: Date) throws -> [GrantRecord]

    /// Revokes every active family of a user; returns how many.
    @discardableResult
    func revokeGrants(userID: String, reason: String, now: Date) throws -> Int

    /// Revokes every active family of a user granted for an organization (scope `organization`,
    /// `GrantRecord.organizationID`); returns how many.
    @discardableResult
    func revokeGrants(userID: String, organizationID: String, reason: String, now: Date) throws -> Int

    /// Revokes every active family granted for an organization, whoever the user (the
    /// organization is deleted); returns how many.
    @discardableResult
    func revokeGrants(organizationID: String, reason: String, now: Date) throws -> Int

    /// Revokes every active family started from an SSO session; returns how many.
    @discardableResult
    func revokeGrants(sessionID: String, reason: String, now: Date) throws -> Int
}

extension RefreshTokenStore {
    /// The two writes one after the other, for stores without a shared transaction.
    public func createGrant(_ grant: GrantRecord, firstToken: RefreshTokenRecord?) throws {
        try createGrant(grant)
        if let firstToken { try insertRefreshToken(firstToken) }
    }

    /// The check as its own reads before the rotation (for stores that cannot run it inside their
    /// transaction): the token, then its family, then `rotateRefreshToken`. It reads no user
    /// (`Rotation.user` stays nil whatever `withUser` asks).
    public func rotateRefreshToken(tokenHash: [UInt8], grantID: String?, clientID: String, successorHash: [UInt8],
                                   successorExpiresAt: Date, now: Date, graceSeconds: Int, withUser: Bool,
                                   check: (RefreshTokenRecord, GrantRecord) throws -> Void) throws -> RotationResult {
        if let token = try refreshToken(hash: tokenHash, grantID: grantID), let grant = try grant(id: token.grantID),
           grant.clientID == clientID {
            try check(token, grant)
        }
        return try rotateRefreshToken(tokenHash: tokenHash, grantID: grantID, clientID: clientID, successorHash: successorHash,
                                      successorExpiresAt: successorExpiresAt, now: now, graceSeconds: graceSeconds)
    }
}
