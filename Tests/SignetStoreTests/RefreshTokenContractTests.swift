import Foundation
import SignetStore
import SignetTesting
import Testing

@Suite("Contract: grant families and refresh rotation", .endToEndLimit)
struct RefreshTokenContractTests {
    /// A store holding grant `g` (client `app`) with live token `rt-0`.
    func family(_ backend: Backend, lifetime: Double = 86_400) throws -> any SignetStorage {
        let storage = try backend.make()
        try storage.refreshTokens.createGrant(Fixture.grant("g", lifetime: lifetime))
        try storage.refreshTokens.insertRefreshToken(Fixture.token("rt-0", grant: "g"))
        return storage
    }

    func rotate(_ store: any RefreshTokenStore, _ presented: String, to successor: String, at seconds: Double,
                client: String = "app", grace: Int = 30, family: String? = "g") throws -> RotationResult {
        try store.rotateRefreshToken(tokenHash: hash(presented), grantID: family, clientID: client, successorHash: hash(successor),
                                     successorExpiresAt: t0.addingTimeInterval(seconds + 3_600),
                                     now: t0.addingTimeInterval(seconds), graceSeconds: grace)
    }

    @Test(arguments: Backend.allCases)
    func grantsAndTokens(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        #expect(throws: StoreError.duplicate) { try store.createGrant(Fixture.grant("g")) }
        #expect(throws: StoreError.duplicate) { try store.insertRefreshToken(Fixture.token("rt-0", grant: "g")) }
        #expect(throws: StoreError.notFound) { try store.insertRefreshToken(Fixture.token("rt-x", grant: "ghost")) }
        #expect(try store.grant(id: "g") == Fixture.grant("g"))
        #expect(try store.grant(id: "ghost") == nil)
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g") == Fixture.token("rt-0", grant: "g"))
        #expect(try store.refreshToken(hash: hash("rt-x"), grantID: "g") == nil)
        #expect(try store.isGrantActive(id: "g", now: t0))
        #expect(try store.isGrantActive(id: "g", now: t0.addingTimeInterval(86_399)))
        #expect(try !store.isGrantActive(id: "g", now: t0.addingTimeInterval(86_400)))
        #expect(try !store.isGrantActive(id: "ghost", now: t0))
    }

    /// A family whose scope and resources run to kilobytes of random text (a client with a long
    /// list of each) is stored, shares its profile with the next such family, and rotates: the
    /// profiles' UNIQUE index holds a digest, so no entry exceeds PostgreSQL's B-tree limit (about
    /// 2.7 kB, after compression, which random text defeats).
    @Test(arguments: Backend.allCases)
    func aFamilyWithLongScopeAndResourcesIsStoredAndRotates(_ backend: Backend) throws {
        let storage = try backend.make()
        let store = storage.refreshTokens
        let scope = (0..<200).map { _ in UUID().uuidString.lowercased() }.joined(separator: " ")
        let resources = (0..<60).map { _ in "https://api.example.com/" + UUID().uuidString.lowercased() }
        for id in ["long-1", "long-2"] {
            var grant = Fixture.grant(id)
            grant.scope = scope
            grant.resources = resources
            try store.createGrant(grant)
            #expect(try store.grant(id: id) == grant)
        }
        try store.insertRefreshToken(Fixture.token("rt-long", grant: "long-2"))
        guard case .rotated(let rotation) = try rotate(store, "rt-long", to: "rt-long-1", at: 10, family: "long-2") else {
            Issue.record("expected .rotated")
            return
        }
        #expect(rotation.grant.scope == scope)
        #expect(rotation.grant.resources == resources)
    }

    /// A token keeps the scope it was stored with: its family's (which the store need not repeat,
    /// migration 17), or a narrower one of its own; its successor keeps the same.
    @Test(arguments: Backend.allCases)
    func aTokenKeepsItsOwnScopeOrItsFamilys(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        var narrow = Fixture.token("rt-narrow", grant: "g")
        narrow.scope = "openid"
        try store.insertRefreshToken(narrow)
        #expect(try store.refreshToken(hash: hash("rt-narrow"), grantID: "g") == narrow)
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g")?.scope == Fixture.grant("g").scope)
        guard case .rotated(let rotation) = try rotate(store, "rt-narrow", to: "rt-narrow-1", at: 10) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(rotation.successor.scope == "openid")
        #expect(try store.refreshToken(hash: hash("rt-narrow-1"), grantID: "g")?.scope == "openid")
        guard case .rotated(let wide) = try rotate(store, "rt-0", to: "rt-1", at: 20) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(try store.refreshToken(hash: hash("rt-1"), grantID: "g") == wide.successor)
        #expect(wide.successor.scope == Fixture.grant("g").scope)
    }

    @Test(arguments: Backend.allCases)
    func aDisabledUserIsSeenInsideTheRotationAndRevokesTheFamily(_ backend: Backend) throws {
        let storage = try family(backend)
        var user = Fixture.user("user-1", email: "ada@example.com")
        user.disabledAt = t0.addingTimeInterval(5)
        try storage.users.insertUser(user)
        let store = storage.refreshTokens
        guard case .userDisabled(let grant) = try rotate(store, "rt-0", to: "rt-1", at: 10) else {
            Issue.record("expected .userDisabled")
            return
        }
        #expect(grant.revokedAt == t0.addingTimeInterval(10))
        #expect(grant.revokeReason == RevokeReason.userDisabled)
        #expect(try store.grant(id: "g") == grant)
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g")?.rotatedAt == nil)
        #expect(try store.refreshToken(hash: hash("rt-1"), grantID: "g") == nil)
        // The family stays revoked when the user is enabled again.
        try storage.users.setDisabled(userID: "user-1", disabledAt: nil, now: t0.addingTimeInterval(20))
        #expect(try rotate(store, "rt-0", to: "rt-1", at: 30) == .revoked)
    }

    @Test(arguments: Backend.allCases)
    func anActiveUserRotates(_ backend: Backend) throws {
        let storage = try family(backend)
        try storage.users.insertUser(Fixture.user("user-1", email: "ada@example.com"))
        guard case .rotated = try rotate(storage.refreshTokens, "rt-0", to: "rt-1", at: 10) else {
            Issue.record("expected .rotated")
            return
        }
    }

    /// Asked for the user (a refresh that issues an ID token), the rotation's own read returns the
    /// family's user as a rotation and a grace retry; not asked, or with no such user, none; the
    /// other outcomes carry none.
    @Test(arguments: Backend.allCases)
    func aRotationAskedForTheUserReturnsItFromItsOwnRead(_ backend: Backend) throws {
        let storage = try family(backend)
        let user = Fixture.user("user-1", email: "ada@example.com")
        try storage.users.insertUser(user)
        let store = storage.refreshTokens
        func rotate(_ presented: String, to successor: String, at seconds: Double, withUser: Bool,
                    family: String = "g") throws -> RotationResult {
            try store.rotateRefreshToken(tokenHash: hash(presented), grantID: family, clientID: "app",
                                         successorHash: hash(successor), successorExpiresAt: t0.addingTimeInterval(seconds + 3_600),
                                         now: t0.addingTimeInterval(seconds), graceSeconds: 30, withUser: withUser) { _, _ in }
        }
        guard case .rotated(let first) = try rotate("rt-0", to: "rt-1", at: 10, withUser: true) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(first.user == user)
        guard case .graceRetry(let retry) = try rotate("rt-0", to: "rt-1", at: 12, withUser: true) else {
            Issue.record("expected .graceRetry")
            return
        }
        #expect(retry.user == user)
        guard case .rotated(let second) = try rotate("rt-1", to: "rt-2", at: 20, withUser: false) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(second.user == nil)
        let reuse = try rotate("rt-0", to: "rt-9", at: 100, withUser: true)
        let revoked = try #require(try store.grant(id: "g"))
        #expect(reuse == .reuseDetected(revoked))
        // A family whose user is gone rotates as before, with no user to return.
        try store.createGrant(Fixture.grant("g2", user: "user-gone"), firstToken: Fixture.token("rt-a", grant: "g2"))
        guard case .rotated(let orphan) = try rotate("rt-a", to: "rt-b", at: 30, withUser: true, family: "g2") else {
            Issue.record("expected .rotated")
            return
        }
        #expect(orphan.user == nil)
    }

    /// A family and its first token are stored together or not at all: a duplicate family (a
    /// replayed code's revoked row) leaves no token behind, and a token that cannot be stored
    /// leaves no family behind.
    @Test(arguments: Backend.allCases)
    func aFamilyAndItsFirstTokenAreOneWrite(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        try store.createGrant(Fixture.grant("g2"), firstToken: Fixture.token("rt-a", grant: "g2"))
        #expect(try store.grant(id: "g2") == Fixture.grant("g2"))
        #expect(try store.refreshToken(hash: hash("rt-a"), grantID: "g2") == Fixture.token("rt-a", grant: "g2"))
        #expect(throws: StoreError.duplicate) {
            try store.createGrant(Fixture.grant("g"), firstToken: Fixture.token("rt-b", grant: "g"))
        }
        #expect(try store.refreshToken(hash: hash("rt-b"), grantID: "g") == nil)
        #expect(throws: StoreError.notFound) {
            try store.createGrant(Fixture.grant("g4"), firstToken: Fixture.token("rt-c", grant: "ghost"))
        }
        #expect(try store.grant(id: "g4") == nil)
        try store.createGrant(Fixture.grant("g3"), firstToken: nil)
        #expect(try store.grant(id: "g3") == Fixture.grant("g3"))
    }

    /// A token is found only under the family its string names (migration 19: the grant id is
    /// its locator): under another family, or as a token from before migration 19 (no family),
    /// it is unknown, and presenting it that way changes nothing.
    @Test(arguments: Backend.allCases)
    func aTokenIsFoundOnlyUnderItsFamily(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        try store.createGrant(Fixture.grant("g2"))
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g2") == nil)
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "ghost") == nil)
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: nil) == nil)
        for family in ["g2", "ghost", nil] as [String?] {
            #expect(try rotate(store, "rt-0", to: "rt-1", at: 10, family: family) == .notFound)
        }
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g") == Fixture.token("rt-0", grant: "g"))
        #expect(try store.refreshToken(hash: hash("rt-1"), grantID: "g") == nil)
        guard case .rotated(let rotation) = try rotate(store, "rt-0", to: "rt-1", at: 20) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(rotation.successor.grantID == "g")
        #expect(try store.refreshToken(hash: hash("rt-1"), grantID: "g") == rotation.successor)
    }

    struct Refused: Error {}

    /// The caller's check sees the presented token and its family inside the rotation; when it
    /// throws, its error comes out and nothing is written; it is not asked about another client's
    /// token or an unknown one.
    @Test(arguments: Backend.allCases)
    func aThrowingCheckLeavesTheTokenAsItWas(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        var seen: [(RefreshTokenRecord, GrantRecord)] = []
        #expect(throws: Refused.self) {
            try store.rotateRefreshToken(tokenHash: hash("rt-0"), grantID: "g", clientID: "app", successorHash: hash("rt-1"),
                                         successorExpiresAt: t0.addingTimeInterval(3_610), now: t0.addingTimeInterval(10),
                                         graceSeconds: 30, withUser: false) { token, grant in
                seen.append((token, grant))
                throw Refused()
            }
        }
        #expect(seen.count == 1)
        #expect(seen.first?.0 == Fixture.token("rt-0", grant: "g"))
        #expect(seen.first?.1 == Fixture.grant("g"))
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g") == Fixture.token("rt-0", grant: "g"))
        #expect(try store.refreshToken(hash: hash("rt-1"), grantID: "g") == nil)
        // Not asked for another client's token or an unknown hash; those decide as without a check.
        for (presented, client, expected) in [("rt-0", "other", RotationResult.clientMismatch), ("rt-x", "app", .notFound)] {
            let result = try store.rotateRefreshToken(tokenHash: hash(presented), grantID: "g", clientID: client, successorHash: hash("rt-1"),
                                                      successorExpiresAt: t0.addingTimeInterval(3_610),
                                                      now: t0.addingTimeInterval(10), graceSeconds: 30,
                                                      withUser: false) { _, _ in throw Refused() }
            #expect(result == expected)
        }
        // Past the grace window the token is still live, so it was never rotated.
        guard case .rotated = try rotate(store, "rt-0", to: "rt-1", at: 100) else {
            Issue.record("expected .rotated")
            return
        }
    }

    @Test(arguments: Backend.allCases)
    func normalRotationChain(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        guard case .rotated(let first) = try rotate(store, "rt-0", to: "rt-1", at: 10) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(first.grant.grantID == "g")
        #expect(first.presented.rotatedAt == t0.addingTimeInterval(10))
        #expect(first.presented.successorHash == hash("rt-1"))
        #expect(first.successor == RefreshTokenRecord(
            tokenHash: hash("rt-1"), grantID: "g", parentHash: hash("rt-0"), scope: "openid offline_access",
            createdAt: t0.addingTimeInterval(10), expiresAt: t0.addingTimeInterval(3_610)))
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g") == first.presented)
        #expect(try store.refreshToken(hash: hash("rt-1"), grantID: "g") == first.successor)

        guard case .rotated(let second) = try rotate(store, "rt-1", to: "rt-2", at: 100) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(second.successor.parentHash == hash("rt-1"))
        #expect(try store.isGrantActive(id: "g", now: t0.addingTimeInterval(100)))
    }

    @Test(arguments: Backend.allCases)
    func graceRetryReturnsSameSuccessorWithoutSecondChain(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        guard case .rotated(let first) = try rotate(store, "rt-0", to: "rt-1", at: 10) else {
            Issue.record("expected .rotated")
            return
        }
        guard case .graceRetry(let retry) = try rotate(store, "rt-0", to: "rt-1", at: 40) else {   // 30 s later
            Issue.record("expected .graceRetry")
            return
        }
        #expect(retry.successor == first.successor)
        #expect(retry.presented == first.presented)
        #expect(try store.refreshToken(hash: hash("rt-1"), grantID: "g")?.rotatedAt == nil)
        // The successor chain goes on normally.
        guard case .rotated = try rotate(store, "rt-1", to: "rt-2", at: 41) else {
            Issue.record("expected .rotated")
            return
        }
    }

    @Test(arguments: Backend.allCases)
    func reuseAfterGraceRevokesFamily(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        _ = try rotate(store, "rt-0", to: "rt-1", at: 10)
        guard case .reuseDetected(let grant) = try rotate(store, "rt-0", to: "rt-1", at: 41) else {
            Issue.record("expected .reuseDetected")
            return
        }
        #expect(grant.revokedAt == t0.addingTimeInterval(41))
        #expect(grant.revokeReason == RevokeReason.refreshTokenReuse)
        #expect(try store.grant(id: "g") == grant)
        #expect(try !store.isGrantActive(id: "g", now: t0.addingTimeInterval(41)))
        // The live token of the family is dead too.
        #expect(try rotate(store, "rt-1", to: "rt-2", at: 42) == .revoked)
    }

    @Test(arguments: Backend.allCases)
    func reuseOfOlderAncestorWithinGraceRevokesFamily(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        _ = try rotate(store, "rt-0", to: "rt-1", at: 10)
        _ = try rotate(store, "rt-1", to: "rt-2", at: 11)
        // rt-0 was rotated 2 s ago, but its successor rt-1 is no longer live: not a retry.
        guard case .reuseDetected = try rotate(store, "rt-0", to: "rt-1", at: 12) else {
            Issue.record("expected .reuseDetected")
            return
        }
        #expect(try !store.isGrantActive(id: "g", now: t0.addingTimeInterval(12)))
    }

    @Test(arguments: Backend.allCases)
    func refusals(_ backend: Backend) throws {
        let store = try family(backend, lifetime: 1_000).refreshTokens
        #expect(try rotate(store, "unknown", to: "x", at: 1) == .notFound)
        #expect(try rotate(store, "rt-0", to: "x", at: 1, client: "other-app") == .clientMismatch)
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g")?.rotatedAt == nil)
        #expect(try rotate(store, "rt-0", to: "x", at: 1_000) == .expired)   // family's absolute expiry
        #expect(try store.refreshToken(hash: hash("x"), grantID: "g") == nil)

        // A successor's expiry is clamped to the family's absolute expiry.
        guard case .rotated(let rotation) = try rotate(store, "rt-0", to: "rt-1", at: 900) else {
            Issue.record("expected .rotated")
            return
        }
        #expect(rotation.successor.expiresAt == t0.addingTimeInterval(1_000))

        #expect(try store.revokeGrant(id: "g", reason: "user_logout", now: t0.addingTimeInterval(901)))
        #expect(try !store.revokeGrant(id: "g", reason: "again", now: t0.addingTimeInterval(902)))
        #expect(try store.grant(id: "g")?.revokeReason == "user_logout")
        #expect(try !store.revokeGrant(id: "ghost", reason: "x", now: t0))
        #expect(try rotate(store, "rt-1", to: "rt-2", at: 903) == .revoked)
    }

    @Test(arguments: Backend.allCases)
    func expiredLiveToken(_ backend: Backend) throws {
        let storage = try backend.make()
        let store = storage.refreshTokens
        try store.createGrant(Fixture.grant("g"))
        try store.insertRefreshToken(Fixture.token("short", grant: "g", expiresIn: 60))
        #expect(try rotate(store, "short", to: "next", at: 60) == .expired)
        #expect(try store.isGrantActive(id: "g", now: t0.addingTimeInterval(60)))
    }

    @Test(arguments: Backend.allCases)
    func duplicateSuccessorRollsBack(_ backend: Backend) throws {
        let store = try family(backend).refreshTokens
        try store.insertRefreshToken(Fixture.token("taken", grant: "g"))
        #expect(throws: StoreError.duplicate) { try rotate(store, "rt-0", to: "taken", at: 5) }
        #expect(try store.refreshToken(hash: hash("rt-0"), grantID: "g")?.rotatedAt == nil)
    }

    @Test(arguments: Backend.allCases)
    func revokeByUserAndSession(_ backend: Backend) throws {
        let store = try backend.make().refreshTokens
        try store.createGrant(Fixture.grant("a1", user: "alice", session: "s1"))
        try store.createGrant(Fixture.grant("a2", user: "alice", session: "s2"))
        try store.createGrant(Fixture.grant("b1", user: "bob", session: "s1"))
        #expect(try store.revokeGrants(sessionID: "s1", reason: "logout", now: t0) == 2)
        #expect(try store.revokeGrants(sessionID: "s1", reason: "logout", now: t0) == 0)
        #expect(try store.revokeGrants(userID: "alice", reason: "user_disabled", now: t0) == 1)
        #expect(try !store.isGrantActive(id: "a1", now: t0))
        #expect(try !store.isGrantActive(id: "a2", now: t0))
        #expect(try !store.isGrantActive(id: "b1", now: t0))
        #expect(try store.grant(id: "a2")?.revokeReason == "user_disabled")
        #expect(try store.grant(id: "a1")?.revokeReason == "logout")
    }

    /// The session index holds only the first 11 characters of a session id (migration 18): ids
    /// that share them are still told apart, and a family without a session is never matched.
    @Test(arguments: Backend.allCases)
    func revokeBySessionComparesTheWholeID(_ backend: Backend) throws {
        let store = try backend.make().refreshTokens
        let session = "0123456789a-first-session-public-identifier"
        try store.createGrant(Fixture.grant("one", session: session))
        try store.createGrant(Fixture.grant("other", session: "0123456789a-other-session-public-identifier"))
        try store.createGrant(Fixture.grant("prefix", session: "0123456789a"))
        try store.createGrant(Fixture.grant("none", session: nil))
        #expect(try store.revokeGrants(sessionID: session, reason: "logout", now: t0) == 1)
        #expect(try store.revokeGrants(sessionID: "0123456789a", reason: "logout", now: t0) == 1)
        #expect(try !store.isGrantActive(id: "one", now: t0))
        #expect(try !store.isGrantActive(id: "prefix", now: t0))
        #expect(try store.isGrantActive(id: "other", now: t0))
        #expect(try store.isGrantActive(id: "none", now: t0))
    }

    @Test(arguments: Backend.allCases)
    func revokeByOrganization(_ backend: Backend) throws {
        let store = try backend.make().refreshTokens
        func grant(_ id: String, user: String, organization: String?) -> GrantRecord {
            var record = Fixture.grant(id, user: user)
            record.organizationID = organization
            return record
        }
        try store.createGrant(grant("a-acme", user: "alice", organization: "org_acme"))
        try store.createGrant(grant("b-acme", user: "bob", organization: "org_acme"))
        try store.createGrant(grant("a-beta", user: "alice", organization: "org_beta"))
        try store.createGrant(grant("a-none", user: "alice", organization: nil))
        try store.createGrant(grant("c-acme", user: "carol", organization: "org_acme"))
        #expect(try store.revokeGrant(id: "c-acme", reason: "logout", now: t0))
        #expect(try store.revokeGrants(organizationID: "org_acme", reason: "organization_deleted", now: t0) == 2)
        #expect(try store.revokeGrants(organizationID: "org_acme", reason: "organization_deleted", now: t0) == 0)
        #expect(try store.grant(id: "a-acme")?.revokeReason == "organization_deleted")
        #expect(try store.grant(id: "b-acme")?.revokeReason == "organization_deleted")
        #expect(try store.grant(id: "c-acme")?.revokeReason == "logout")
        #expect(try store.isGrantActive(id: "a-beta", now: t0))
        #expect(try store.isGrantActive(id: "a-none", now: t0))
    }
}
