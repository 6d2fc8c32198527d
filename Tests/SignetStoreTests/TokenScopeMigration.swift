import Foundation
import SignetSQL
import SignetStore
import Testing

/// Migration 17 on either backend (SQLiteStorageTests, PostgresStorageTests): a database as
/// migration 16 left it, with one grant and two refresh tokens, one with its grant's scope and one
/// with a narrower scope of its own.
enum TokenScopeMigration {
    /// Migrates the empty database on `db` through version 16 and writes the grant and tokens.
    static func writeVersion16(_ db: any SQLConnection) throws {
        #expect(try SQLMigrations.migrate(db, through: 16) == Array(1...16))
        try db.execute("""
            INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, auth_time, payload)
            VALUES ('g-1', 'app', 'user-1', 'openid offline_access', 0, 9000000000000000, 0, '{}')
            """)
        let insert = """
            INSERT INTO refresh_tokens (token_hash, grant_id, parent_hash, scope, created_at, expires_at, rotated_at, successor_hash)
            VALUES ($1, 'g-1', NULL, $2, 0, 8000000000000000, NULL, NULL)
            """
        _ = try db.run(insert, [hash("rt-same"), "openid offline_access"])
        _ = try db.run(insert, [hash("rt-narrow"), "openid"])
    }

    /// After migration 17: both tokens read with the scope they had, and the one with the grant's
    /// rotates to a successor with the same scope.
    static func expectScopesKept(_ store: any RefreshTokenStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try store.refreshToken(hash: hash("rt-same"), grantID: nil)?.scope == "openid offline_access", sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("rt-narrow"), grantID: nil)?.scope == "openid", sourceLocation: sourceLocation)
        guard case .rotated(let rotation) = try store.rotateRefreshToken(
            tokenHash: hash("rt-same"), grantID: nil, clientID: "app", successorHash: hash("rt-next"),
            successorExpiresAt: t0.addingTimeInterval(3_600), now: t0, graceSeconds: 0) else {
            Issue.record("expected .rotated", sourceLocation: sourceLocation)
            return
        }
        #expect(rotation.successor.scope == "openid offline_access", sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("rt-next"), grantID: "g-1") == rotation.successor, sourceLocation: sourceLocation)
    }

    /// The scopes as stored after `expectScopesKept`, in token-hash order (rt-narrow, rt-next, rt-same):
    /// only the narrower one is there; the others read as their grant's.
    static let storedScopes: [String?] = ["openid", nil, nil]
    /// The query for `storedScopes`.
    static let storedScopesQuery = "SELECT scope FROM refresh_tokens ORDER BY token_hash"
}
