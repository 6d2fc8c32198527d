import Foundation
import SignetSQL
import SignetStore
import Testing

/// Migration 18 on either backend (SQLiteStorageTests, PostgresStorageTests): a database as
/// migration 17 left it, with grant families of each kind (live with a rotated token and its
/// successor, for an organization with a token of a narrower scope of its own, revoked, past its
/// absolute expiry) and each grant's payload holding its old copy of `amr`.
enum GrantKeyMigration {
    static let live = GrantRecord(
        grantID: "g-live",
        terms: GrantTerms(clientID: "app", userID: "user-1", scope: "openid offline_access",
                          resources: ["https://api.example.com"], amr: ["pwd", "mfa"], authTime: t0.addingTimeInterval(-180),
                          sessionID: "sid-1"),
        createdAt: t0.addingTimeInterval(-120),
        absoluteExpiresAt: t0.addingTimeInterval(86_400))
    static let organization = GrantRecord(
        grantID: "g-org",
        terms: GrantTerms(clientID: "app", userID: "user-1", scope: "openid offline_access organization", amr: ["fed"],
                          authTime: t0, organizationID: "org-1"),
        createdAt: t0,
        absoluteExpiresAt: t0.addingTimeInterval(86_400))
    static let revoked = GrantRecord(
        grantID: "g-revoked",
        terms: GrantTerms(clientID: "other", userID: "user-2", scope: "openid offline_access", amr: ["pwd"],
                          authTime: t0.addingTimeInterval(-600), sessionID: "sid-2"),
        createdAt: t0.addingTimeInterval(-600),
        absoluteExpiresAt: t0.addingTimeInterval(86_400),
        revokedAt: t0.addingTimeInterval(-10),
        revokeReason: RevokeReason.codeReplay)
    static let expired = GrantRecord(
        grantID: "g-expired",
        terms: GrantTerms(clientID: "app", userID: "user-2", scope: "openid offline_access", amr: ["pwd"],
                          authTime: t0.addingTimeInterval(-200_000)),
        createdAt: t0.addingTimeInterval(-200_000),
        absoluteExpiresAt: t0.addingTimeInterval(-100))
    /// Every grant as it reads after migration 18 (payload `{}`, the rest as written).
    static let grants = [live, organization, revoked, expired]

    /// The tokens as they read (each one's scope its own or its grant's), in token-hash order.
    static let tokens = [
        RefreshTokenRecord(tokenHash: hash("rt-expired"), grantID: "g-expired", scope: "openid offline_access",
                           createdAt: t0.addingTimeInterval(-200_000), expiresAt: t0.addingTimeInterval(-100)),
        RefreshTokenRecord(tokenHash: hash("rt-first"), grantID: "g-live", scope: "openid offline_access",
                           createdAt: t0.addingTimeInterval(-120), expiresAt: t0.addingTimeInterval(3_600),
                           rotatedAt: t0.addingTimeInterval(-60), successorHash: hash("rt-live")),
        RefreshTokenRecord(tokenHash: hash("rt-live"), grantID: "g-live", parentHash: hash("rt-first"), scope: "openid offline_access",
                           createdAt: t0.addingTimeInterval(-60), expiresAt: t0.addingTimeInterval(3_600)),
        RefreshTokenRecord(tokenHash: hash("rt-org"), grantID: "g-org", scope: "openid", createdAt: t0,
                           expiresAt: t0.addingTimeInterval(3_600)),
        RefreshTokenRecord(tokenHash: hash("rt-revoked"), grantID: "g-revoked", scope: "openid offline_access",
                           createdAt: t0.addingTimeInterval(-600), expiresAt: t0.addingTimeInterval(3_600)),
    ]

    /// Migrates the empty database on `db` through version 17 and writes the families as
    /// version 17 stored them (the grant's text id in each token, its scope NULL where it is the
    /// grant's, the grant's payload a copy of its `amr`).
    static func writeVersion17(_ db: any SQLConnection) throws {
        #expect(try SQLMigrations.migrate(db, through: 17) == Array(1...17))
        for grant in grants {
            let payload = #"{"amr":["# + grant.amr.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
            _ = try db.run("""
                INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, revoked_at, revoke_reason,
                                    session_id, auth_time, payload, resources, amr, organization_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                """, [grant.grantID, grant.clientID, grant.userID, grant.scope, grant.createdAt, grant.absoluteExpiresAt,
                      grant.revokedAt, grant.revokeReason, grant.sessionID, grant.authTime, payload,
                      try StringList.json(grant.resources), grant.amr.joined(separator: " "), grant.organizationID])
        }
        for token in tokens {
            let grantScope = grants.first { $0.grantID == token.grantID }?.scope
            _ = try db.run("""
                INSERT INTO refresh_tokens (token_hash, grant_id, parent_hash, scope, created_at, expires_at, rotated_at, successor_hash)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """, [token.tokenHash, token.grantID, token.parentHash, (token.scope == grantScope ? nil : token.scope) as String?,
                      token.createdAt, token.expiresAt, token.rotatedAt, token.successorHash])
        }
    }

    /// Each token's grant and stored scope as migration 18 left them, in token-hash order: the
    /// grant found through the integer key, the scope still NULL where it is the grant's.
    static let storedTokensQuery = """
        SELECT g.grant_id, t.scope FROM refresh_tokens t JOIN grants g ON g.id = t.grant_ref ORDER BY t.token_hash
        """
    /// What `storedTokensQuery` returns right after the migration.
    static let storedTokens: [[String?]] = [["g-expired", nil], ["g-live", nil], ["g-live", nil], ["g-org", "openid"], ["g-revoked", nil]]
    /// Every grant profile after migration 20 and `expectFamiliesWork`, in key order.
    static let storedProfilesQuery = "SELECT client_id, scope, amr FROM grant_profiles ORDER BY id"
    /// What `storedProfilesQuery` returns: migration 20 made one profile per distinct client, scope,
    /// resources and `amr` of the four grants, in that order (`g-live`'s resources sort before
    /// `[]`); `g-fresh` shares `g-expired`'s, the replayed code's placeholder grant adds one, and
    /// the purge of the revoked and expired families keeps them all.
    static let storedProfiles: [[String]] = [
        ["app", "openid offline_access", "pwd mfa"], ["app", "openid offline_access", "pwd"],
        ["app", "openid offline_access organization", "fed"], ["other", "openid offline_access", "pwd"], ["app", "openid", ""],
    ]

    /// After migration 18: every grant and token reads back as it was, the family queries find them.
    static func expectReadBack(_ store: any RefreshTokenStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for grant in grants {
            #expect(try store.grant(id: grant.grantID) == grant, sourceLocation: sourceLocation)
        }
        for token in tokens {
            #expect(try store.refreshToken(hash: token.tokenHash, grantID: nil) == token, sourceLocation: sourceLocation)
        }
        #expect(try store.isGrantActive(id: "g-live", now: t0), sourceLocation: sourceLocation)
        #expect(try !store.isGrantActive(id: "g-revoked", now: t0), sourceLocation: sourceLocation)
        #expect(try !store.isGrantActive(id: "g-expired", now: t0), sourceLocation: sourceLocation)
        #expect(try store.activeRefreshGrants(userID: "user-1", now: t0).map(\.grantID) == ["g-org", "g-live"],
                sourceLocation: sourceLocation)
    }

    /// After `expectReadBack`: rotations (of the grant's scope and of a token's own), a new family
    /// and its first token, the errors of a missing family and a duplicate one, reuse of a rotated
    /// token, an organization's revocation and a replayed code's, then the purge of the revoked and
    /// the expired family with their tokens.
    static func expectFamiliesWork(_ storage: any SignetStorage, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = storage.refreshTokens
        func rotate(_ presented: String, _ next: String) throws -> RotationResult {
            try store.rotateRefreshToken(tokenHash: hash(presented), grantID: nil, clientID: "app", successorHash: hash(next),
                                         successorExpiresAt: t0.addingTimeInterval(3_600), now: t0, graceSeconds: 0)
        }
        guard case .rotated(let rotation) = try rotate("rt-live", "rt-next"),
              case .rotated(let narrow) = try rotate("rt-org", "rt-org-next") else {
            Issue.record("expected both tokens to rotate", sourceLocation: sourceLocation)
            return
        }
        #expect(rotation.successor.grantID == "g-live" && rotation.successor.scope == "openid offline_access",
                sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("rt-next"), grantID: "g-live") == rotation.successor, sourceLocation: sourceLocation)
        #expect(narrow.successor.grantID == "g-org" && narrow.successor.scope == "openid", sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("rt-org-next"), grantID: "g-org") == narrow.successor, sourceLocation: sourceLocation)

        let fresh = GrantRecord(
            grantID: "g-fresh",
            terms: GrantTerms(clientID: "app", userID: "user-1", scope: "openid offline_access", amr: ["pwd"], authTime: t0),
            createdAt: t0,
            absoluteExpiresAt: t0.addingTimeInterval(86_400))
        let first = RefreshTokenRecord(tokenHash: hash("rt-fresh"), grantID: "g-fresh", scope: "openid offline_access",
                                       createdAt: t0, expiresAt: t0.addingTimeInterval(3_600))
        try store.createGrant(fresh, firstToken: first)
        #expect(try store.grant(id: "g-fresh") == fresh, sourceLocation: sourceLocation)
        #expect(try store.refreshToken(hash: hash("rt-fresh"), grantID: "g-fresh") == first, sourceLocation: sourceLocation)
        #expect(throws: StoreError.notFound, sourceLocation: sourceLocation) {
            try store.insertRefreshToken(RefreshTokenRecord(tokenHash: hash("rt-ghost"), grantID: "ghost", scope: "openid",
                                                            createdAt: t0, expiresAt: t0.addingTimeInterval(60)))
        }
        #expect(throws: StoreError.duplicate, sourceLocation: sourceLocation) { try store.createGrant(live) }

        guard case .reuseDetected(let reused) = try rotate("rt-first", "rt-again") else {
            Issue.record("expected reuse of the rotated first token", sourceLocation: sourceLocation)
            return
        }
        #expect(reused.grantID == "g-live" && reused.revokeReason == RevokeReason.refreshTokenReuse, sourceLocation: sourceLocation)
        #expect(try !store.isGrantActive(id: "g-live", now: t0), sourceLocation: sourceLocation)
        #expect(try store.revokeGrants(organizationID: "org-1", reason: RevokeReason.adminRevoked, now: t0) == 1,
                sourceLocation: sourceLocation)
        #expect(try store.activeRefreshGrants(userID: "user-1", now: t0).map(\.grantID) == ["g-fresh"], sourceLocation: sourceLocation)
        let replayed = AuthorizationCodeRecord(
            codeHash: hash("code"),
            grantID: "g-replayed",
            terms: GrantTerms(clientID: "app", userID: "user-3", scope: "openid", authTime: t0),
            redirectURI: "http://127.0.0.1/callback",
            createdAt: t0,
            expiresAt: t0.addingTimeInterval(60))
        try store.revokeGrant(issuedFrom: replayed, reason: RevokeReason.codeReplay, now: t0)
        #expect(try store.grant(id: "g-replayed")?.revokeReason == RevokeReason.codeReplay, sourceLocation: sourceLocation)

        // The revoked family (revoked before t0) and the expired one, each with its token.
        #expect(try storage.purge(before: t0) == 4, sourceLocation: sourceLocation)
        for gone in ["g-revoked", "g-expired"] {
            #expect(try store.grant(id: gone) == nil, sourceLocation: sourceLocation)
        }
        for gone in ["rt-revoked", "rt-expired"] {
            #expect(try store.refreshToken(hash: hash(gone), grantID: nil) == nil, sourceLocation: sourceLocation)
        }
        #expect(try store.refreshToken(hash: hash("rt-next"), grantID: "g-live") == rotation.successor, sourceLocation: sourceLocation)
    }

    /// Tokens left after `expectFamiliesWork`: g-live's three, g-org's two, g-fresh's one.
    static let tokensLeft: Int64 = 6
    /// Of those, the ones that go with g-live when it is deleted.
    static let liveFamilyTokens: Int64 = 3
}
