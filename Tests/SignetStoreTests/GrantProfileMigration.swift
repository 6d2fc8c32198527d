import Foundation
import SignetSQL
import SignetStore
import Testing

/// Migration 20 on either backend (SQLiteStorageTests, PostgresStorageTests): a database as
/// migration 19 left it, with three families: two of one client, scope and sign-in (one token
/// issued before migration 19, rotated to one issued after it, which names its family), and one
/// of another client with resources, an organization and a token of a narrower scope of its own,
/// issued before migration 19. After it the two share one profile, every grant and token reads
/// back as it was, and tokens of both shapes rotate.
enum GrantProfileMigration {
    static let first = GrantRecord(
        grantID: "g-a",
        terms: GrantTerms(clientID: "app", userID: "user-1", scope: "openid offline_access", amr: ["pwd"],
                          authTime: t0.addingTimeInterval(-180), sessionID: "sid-1"),
        createdAt: t0.addingTimeInterval(-120),
        absoluteExpiresAt: t0.addingTimeInterval(86_400))
    static let second = GrantRecord(
        grantID: "g-b",
        terms: GrantTerms(clientID: "app", userID: "user-2", scope: "openid offline_access", amr: ["pwd"], authTime: t0),
        createdAt: t0,
        absoluteExpiresAt: t0.addingTimeInterval(86_400))
    static let partner = GrantRecord(
        grantID: "g-c",
        terms: GrantTerms(clientID: "partner", userID: "user-1", scope: "openid offline_access organization",
                          resources: ["https://api.example.com"], amr: ["pwd", "mfa"], authTime: t0, sessionID: "sid-2",
                          organizationID: "org-1"),
        createdAt: t0,
        absoluteExpiresAt: t0.addingTimeInterval(86_400))
    static let grants = [first, second, partner]

    /// The tokens with the `legacy` mark version 19 gave them (1: copied by migration 19, found by
    /// their hash alone; nil: issued after it, found under their family).
    static let tokens: [(token: RefreshTokenRecord, legacy: Int64?)] = [
        (RefreshTokenRecord(tokenHash: hash("a-first"), grantID: "g-a", scope: "openid offline_access",
                            createdAt: t0.addingTimeInterval(-120), expiresAt: t0.addingTimeInterval(3_600),
                            rotatedAt: t0.addingTimeInterval(-60), successorHash: hash("a-live")), 1),
        (RefreshTokenRecord(tokenHash: hash("a-live"), grantID: "g-a", parentHash: hash("a-first"), scope: "openid offline_access",
                            createdAt: t0.addingTimeInterval(-60), expiresAt: t0.addingTimeInterval(3_600)), nil),
        (RefreshTokenRecord(tokenHash: hash("b-live"), grantID: "g-b", scope: "openid offline_access", createdAt: t0,
                            expiresAt: t0.addingTimeInterval(3_600)), nil),
        (RefreshTokenRecord(tokenHash: hash("c-live"), grantID: "g-c", scope: "openid", createdAt: t0,
                            expiresAt: t0.addingTimeInterval(3_600)), 1),
    ]

    /// Migrates the empty database on `db` through version 19 and writes the families as version
    /// 19 stored them (the profile's columns and `payload` in each grant, a token's scope NULL
    /// where it is its grant's).
    static func writeVersion19(_ db: any SQLConnection) throws {
        #expect(try SQLMigrations.migrate(db, through: 19) == Array(1...19))
        for grant in grants {
            _ = try db.run("""
                INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, revoked_at, revoke_reason,
                                    session_id, auth_time, payload, resources, amr, organization_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '{}', $11, $12, $13)
                """, [grant.grantID, grant.clientID, grant.userID, grant.scope, grant.createdAt, grant.absoluteExpiresAt,
                      grant.revokedAt, grant.revokeReason, grant.sessionID, grant.authTime, try StringList.json(grant.resources),
                      grant.amr.joined(separator: " "), grant.organizationID])
        }
        for (token, legacy) in tokens {
            let grantScope = grants.first { $0.grantID == token.grantID }?.scope
            _ = try db.run("""
                INSERT INTO refresh_tokens (grant_ref, created_at, expires_at, rotated_at, legacy, token_hash, parent_hash, scope,
                                            successor_hash)
                VALUES ((SELECT id FROM grants WHERE grant_id = $1), $2, $3, $4, $5, $6, $7, $8, $9)
                """, [token.grantID, token.createdAt, token.expiresAt, token.rotatedAt, legacy, token.tokenHash, token.parentHash,
                      (token.scope == grantScope ? nil : token.scope) as String?, token.successorHash])
        }
    }

    /// The profiles, in key order, right after the migration: `g-a` and `g-b` share the first.
    static let profilesQuery = "SELECT client_id, scope, resources, amr FROM grant_profiles ORDER BY id"
    /// What `profilesQuery` returns right after the migration.
    static var profiles: [[String]] {
        get throws {
            [["app", "openid offline_access", "[]", "pwd"],
             ["partner", partner.scope, try StringList.json(partner.resources), "pwd mfa"]]
        }
    }
    /// Each grant's profile key, in grant-id order.
    static let referencesQuery = "SELECT grant_id, profile_ref FROM grants ORDER BY grant_id"
    /// What `referencesQuery` returns right after the migration.
    static let references = [["g-a", "1"], ["g-b", "1"], ["g-c", "2"]]
    /// The family of each token marked `legacy`, in grant-id order: the mark is copied.
    static let legacyQuery = """
        SELECT g.grant_id FROM refresh_tokens t JOIN grants g ON g.id = t.grant_ref WHERE t.legacy = 1 ORDER BY g.grant_id
        """
    /// What `legacyQuery` returns right after the migration.
    static let legacyTokens = ["g-a", "g-c"]

    /// After migration 20: every grant and token reads back as written; a token issued after
    /// migration 19 rotates under its family and one copied by it by its hash alone; reuse of the
    /// rotated first token revokes its family; the organization's family is found by its
    /// organization; a new family of an existing profile adds no profile, one of a new profile adds it.
    static func expectFamiliesWork(_ store: any RefreshTokenStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for grant in grants {
            #expect(try store.grant(id: grant.grantID) == grant, sourceLocation: sourceLocation)
        }
        for (token, legacy) in tokens {
            #expect(try store.refreshToken(hash: token.tokenHash, grantID: legacy == nil ? token.grantID : nil) == token,
                    sourceLocation: sourceLocation)
        }
        #expect(try store.activeRefreshGrants(userID: "user-1", now: t0).map(\.grantID) == ["g-c", "g-a"],
                sourceLocation: sourceLocation)
        func rotate(_ presented: String, under grantID: String?, by client: String = "app", _ next: String) throws -> RotationResult {
            try store.rotateRefreshToken(tokenHash: hash(presented), grantID: grantID, clientID: client, successorHash: hash(next),
                                         successorExpiresAt: t0.addingTimeInterval(3_600), now: t0, graceSeconds: 0)
        }
        guard case .rotated(let located) = try rotate("a-live", under: "g-a", "a-next"),
              case .rotated(let legacy) = try rotate("c-live", under: nil, by: "partner", "c-next") else {
            Issue.record("expected both live tokens to rotate", sourceLocation: sourceLocation)
            return
        }
        #expect(located.successor.grantID == "g-a" && located.successor.scope == "openid offline_access", sourceLocation: sourceLocation)
        #expect(legacy.successor.grantID == "g-c" && legacy.successor.scope == "openid", sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("c-next"), grantID: "g-c") == legacy.successor, sourceLocation: sourceLocation)
        guard case .reuseDetected(let reused) = try rotate("a-first", under: nil, "a-again") else {
            Issue.record("expected reuse of the rotated first token", sourceLocation: sourceLocation)
            return
        }
        #expect(reused.grantID == "g-a", sourceLocation: sourceLocation)
        #expect(try store.revokeGrants(organizationID: "org-1", reason: RevokeReason.adminRevoked, now: t0) == 1,
                sourceLocation: sourceLocation)
        #expect(try store.activeRefreshGrants(userID: "user-2", now: t0).map(\.grantID) == ["g-b"], sourceLocation: sourceLocation)
        var shared = second
        shared.grantID = "g-d"
        var own = second
        own.grantID = "g-e"
        own.amr = ["passkey"]
        try store.createGrant(shared)
        try store.createGrant(own)
        #expect(try store.grant(id: "g-d") == shared && store.grant(id: "g-e") == own, sourceLocation: sourceLocation)
    }

    /// The profiles after `expectFamiliesWork`: `g-d` took the first, `g-e` added one.
    static var profilesAfter: [[String]] {
        get throws { try profiles + [["app", "openid offline_access", "[]", "passkey"]] }
    }
}
