import Foundation
import SignetSQL
import SignetStore
import Testing

/// Migration 19 on either backend (SQLiteStorageTests, PostgresStorageTests): a database as
/// migration 18 left it, with a family whose first token was rotated and whose successor is live,
/// both issued before the migration (the old token shape, which names no family), and a second
/// family. After it the old tokens are found by their hash alone, the live one rotates, and its
/// successor is a new row under the same family, found only under it.
enum TokenFamilyMigration {
    static let family = GrantRecord(
        grantID: "g-old",
        terms: GrantTerms(clientID: "app", userID: "user-1", scope: "openid offline_access", amr: ["pwd"],
                          authTime: t0.addingTimeInterval(-120)),
        createdAt: t0.addingTimeInterval(-120),
        absoluteExpiresAt: t0.addingTimeInterval(86_400))
    static let other = GrantRecord(
        grantID: "g-other",
        terms: GrantTerms(clientID: "app", userID: "user-1", scope: "openid offline_access", amr: ["pwd"], authTime: t0),
        createdAt: t0,
        absoluteExpiresAt: t0.addingTimeInterval(86_400))
    /// The tokens as version 18 stored them: `old-first` rotated to `old-live`.
    static let tokens = [
        RefreshTokenRecord(tokenHash: hash("old-first"), grantID: "g-old", scope: "openid offline_access",
                           createdAt: t0.addingTimeInterval(-120), expiresAt: t0.addingTimeInterval(3_600),
                           rotatedAt: t0.addingTimeInterval(-60), successorHash: hash("old-live")),
        RefreshTokenRecord(tokenHash: hash("old-live"), grantID: "g-old", parentHash: hash("old-first"), scope: "openid offline_access",
                           createdAt: t0.addingTimeInterval(-60), expiresAt: t0.addingTimeInterval(3_600)),
        RefreshTokenRecord(tokenHash: hash("other-live"), grantID: "g-other", scope: "openid offline_access",
                           createdAt: t0, expiresAt: t0.addingTimeInterval(3_600)),
    ]

    /// Migrates the empty database on `db` through version 18 and writes the families as version
    /// 18 stored them (each token under its grant's integer key, its scope NULL: the grant's).
    static func writeVersion18(_ db: any SQLConnection) throws {
        #expect(try SQLMigrations.migrate(db, through: 18) == Array(1...18))
        for grant in [family, other] {
            _ = try db.run("""
                INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, auth_time, payload, amr)
                VALUES ($1, $2, $3, $4, $5, $6, $7, '{}', $8)
                """, [grant.grantID, grant.clientID, grant.userID, grant.scope, grant.createdAt, grant.absoluteExpiresAt,
                      grant.authTime, grant.amr.joined(separator: " ")])
        }
        for token in tokens {
            _ = try db.run("""
                INSERT INTO refresh_tokens (token_hash, grant_ref, parent_hash, scope, created_at, expires_at, rotated_at, successor_hash)
                VALUES ($1, (SELECT id FROM grants WHERE grant_id = $2), $3, NULL, $4, $5, $6, $7)
                """, [token.tokenHash, token.grantID, token.parentHash, token.createdAt, token.expiresAt, token.rotatedAt,
                      token.successorHash])
        }
    }

    /// After migration 19: the old tokens read back by their hash alone; the live one rotates (found by its hash alone), its successor is
    /// stored under the same family and found there only; a grace retry of the old token finds that
    /// successor; reuse of the first token revokes the family; the other family is untouched.
    static func expectOldTokensWork(_ store: any RefreshTokenStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for token in tokens {
            #expect(try store.refreshToken(hash: token.tokenHash, grantID: nil) == token, sourceLocation: sourceLocation)
        }
        func rotate(_ presented: String, _ next: String, at seconds: Double) throws -> RotationResult {
            try store.rotateRefreshToken(tokenHash: hash(presented), grantID: nil, clientID: "app", successorHash: hash(next),
                                         successorExpiresAt: t0.addingTimeInterval(3_600), now: t0.addingTimeInterval(seconds),
                                         graceSeconds: 30)
        }
        guard case .rotated(let rotation) = try rotate("old-live", "new-live", at: 0) else {
            Issue.record("expected the old live token to rotate", sourceLocation: sourceLocation)
            return
        }
        #expect(rotation.successor.grantID == "g-old" && rotation.successor.parentHash == hash("old-live"), sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("new-live"), grantID: "g-old") == rotation.successor, sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("new-live"), grantID: nil) == nil, sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("new-live"), grantID: "g-other") == nil, sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("old-live"), grantID: nil)?.successorHash == hash("new-live"),
                sourceLocation: sourceLocation)
        // The retry asks for the user, as a refresh that issues an ID token does (the read by hash
        // alone with the user's row); this fixture has no users, so it returns none.
        let retried = try store.rotateRefreshToken(tokenHash: hash("old-live"), grantID: nil, clientID: "app",
                                                   successorHash: hash("new-live"), successorExpiresAt: t0.addingTimeInterval(3_600),
                                                   now: t0.addingTimeInterval(5), graceSeconds: 30, withUser: true) { _, _ in }
        guard case .graceRetry(let retry) = retried else {
            Issue.record("expected a grace retry of the old token", sourceLocation: sourceLocation)
            return
        }
        #expect(retry.successor == rotation.successor && retry.user == nil, sourceLocation: sourceLocation)
        // The new token rotates under its family, as every token issued from now on does.
        guard case .rotated = try store.rotateRefreshToken(
            tokenHash: hash("new-live"), grantID: "g-old", clientID: "app", successorHash: hash("new-next"),
            successorExpiresAt: t0.addingTimeInterval(3_600), now: t0.addingTimeInterval(60), graceSeconds: 30) else {
            Issue.record("expected the successor to rotate under its family", sourceLocation: sourceLocation)
            return
        }
        guard case .reuseDetected(let grant) = try rotate("old-first", "again", at: 100) else {
            Issue.record("expected reuse of the rotated first token", sourceLocation: sourceLocation)
            return
        }
        #expect(grant.grantID == "g-old", sourceLocation: sourceLocation)
        #expect(try store.isGrantActive(id: "g-other", now: t0), sourceLocation: sourceLocation)
        #expect(try store.activeRefreshGrants(userID: "user-1", now: t0).map(\.grantID) == ["g-other"], sourceLocation: sourceLocation)
    }

    /// Each token's `legacy` mark after `expectOldTokensWork`, in (grant, hash) order: the three
    /// copied rows 1, the two successors made after the migration NULL.
    static let legacyQuery = """
        SELECT t.legacy FROM refresh_tokens t JOIN grants g ON g.id = t.grant_ref ORDER BY g.grant_id, t.token_hash
        """
    /// What `legacyQuery` returns: g-old's new-live, new-next, old-first, old-live (hash order), g-other's.
    static var legacyMarks: [Int64?] {
        let old: [(String, Int64?)] = [("new-live", nil), ("new-next", nil), ("old-first", 1), ("old-live", 1)]
        let sorted = old.sorted { hash($0.0).lexicographicallyPrecedes(hash($1.0)) }.map(\.1)
        return sorted + [1]
    }
}
