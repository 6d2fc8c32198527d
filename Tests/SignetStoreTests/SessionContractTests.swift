import Foundation
import SignetStore
import SignetTesting
import Testing

@Suite("Contract: SSO sessions", .endToEndLimit)
struct SessionContractTests {
    @Test(arguments: Backend.allCases)
    func idleAndAbsoluteExpiry(_ backend: Backend) throws {
        let store = try backend.make().sessions
        let session = Fixture.session("s1")   // idle at +1800, absolute at +3600
        try store.insertSession(session)
        #expect(throws: StoreError.duplicate) { try store.insertSession(session) }
        #expect(try store.session(idHash: hash("s1"), now: t0) == session)
        #expect(try store.session(idHash: hash("s1"), now: t0.addingTimeInterval(1_799)) == session)
        #expect(try store.session(idHash: hash("s1"), now: t0.addingTimeInterval(1_800)) == nil)
        #expect(try store.session(idHash: hash("nope"), now: t0) == nil)

        // Touching extends the idle expiry, never past the absolute expiry.
        let touched = try #require(try store.touchSession(idHash: hash("s1"), now: t0.addingTimeInterval(1_000),
                                                          idleExpiresAt: t0.addingTimeInterval(2_800)))
        #expect(touched.lastSeenAt == t0.addingTimeInterval(1_000))
        #expect(touched.idleExpiresAt == t0.addingTimeInterval(2_800))
        #expect(try store.session(idHash: hash("s1"), now: t0.addingTimeInterval(2_000)) == touched)
        let clamped = try #require(try store.touchSession(idHash: hash("s1"), now: t0.addingTimeInterval(2_500),
                                                          idleExpiresAt: t0.addingTimeInterval(4_300)))
        #expect(clamped.idleExpiresAt == t0.addingTimeInterval(3_600))
        #expect(try store.session(idHash: hash("s1"), now: t0.addingTimeInterval(3_600)) == nil)
        #expect(try store.touchSession(idHash: hash("s1"), now: t0.addingTimeInterval(3_600),
                                       idleExpiresAt: t0.addingTimeInterval(5_000)) == nil)
    }

    @Test(arguments: Backend.allCases)
    func idleExpiredSessionCannotBeTouchedBack(_ backend: Backend) throws {
        let store = try backend.make().sessions
        try store.insertSession(Fixture.session("s1"))
        #expect(try store.touchSession(idHash: hash("s1"), now: t0.addingTimeInterval(1_800),
                                       idleExpiresAt: t0.addingTimeInterval(3_000)) == nil)
        #expect(try store.session(idHash: hash("s1"), now: t0.addingTimeInterval(1_801)) == nil)
    }

    @Test(arguments: Backend.allCases)
    func endOneAndAll(_ backend: Backend) throws {
        let store = try backend.make().sessions
        try store.insertSession(Fixture.session("s1", user: "alice"))
        try store.insertSession(Fixture.session("s2", user: "alice"))
        try store.insertSession(Fixture.session("s3", user: "bob"))
        #expect(try store.endSession(idHash: hash("s1"), now: t0))
        #expect(try !store.endSession(idHash: hash("s1"), now: t0))
        #expect(try !store.endSession(idHash: hash("nope"), now: t0))
        #expect(try store.session(idHash: hash("s1"), now: t0) == nil)
        #expect(try store.touchSession(idHash: hash("s1"), now: t0, idleExpiresAt: t0.addingTimeInterval(10)) == nil)
        #expect(try store.endSessions(userID: "alice", now: t0) == 1)
        #expect(try store.session(idHash: hash("s2"), now: t0) == nil)
        #expect(try store.session(idHash: hash("s3"), now: t0) != nil)
    }
}

@Suite("Contract: consent, nonces, audit, throttle, purge", .endToEndLimit)
struct SmallStoresContractTests {
    @Test(arguments: Backend.allCases)
    func consent(_ backend: Backend) throws {
        let store = try backend.make().consents
        #expect(try store.consent(userID: "u1", clientID: "app") == nil)
        let first = ConsentRecord(userID: "u1", clientID: "app", scopes: ["openid", "profile"], grantedAt: t0)
        try store.putConsent(first)
        #expect(try store.consent(userID: "u1", clientID: "app") == first)
        let wider = ConsentRecord(userID: "u1", clientID: "app", scopes: ["openid", "profile", "email"],
                                  grantedAt: t0.addingTimeInterval(60))
        try store.putConsent(wider)
        try store.putConsent(ConsentRecord(userID: "u1", clientID: "another", scopes: [], grantedAt: t0))
        try store.putConsent(ConsentRecord(userID: "u2", clientID: "app", scopes: ["openid"], grantedAt: t0))
        #expect(try store.consent(userID: "u1", clientID: "app") == wider)
        #expect(try store.consents(userID: "u1").map(\.clientID) == ["another", "app"])
        #expect(try store.consent(userID: "u1", clientID: "another")?.scopes == [])
        #expect(try store.revokeConsent(userID: "u1", clientID: "app"))
        #expect(try !store.revokeConsent(userID: "u1", clientID: "app"))
        #expect(try store.consent(userID: "u1", clientID: "app") == nil)
        #expect(try store.consent(userID: "u2", clientID: "app") != nil)
    }

    @Test(arguments: Backend.allCases)
    func nonces(_ backend: Backend) throws {
        let store = try backend.make().nonces
        try store.insertNonce(nonceHash: hash("n1"), clientID: "app", createdAt: t0, expiresAt: t0.addingTimeInterval(300))
        try store.insertNonce(nonceHash: hash("n2"), clientID: "app", createdAt: t0, expiresAt: t0.addingTimeInterval(300))
        #expect(throws: StoreError.duplicate) {
            try store.insertNonce(nonceHash: hash("n1"), clientID: "app", createdAt: t0, expiresAt: t0)
        }
        #expect(try !store.consumeNonce(nonceHash: hash("n1"), clientID: "other", now: t0))
        #expect(try store.consumeNonce(nonceHash: hash("n1"), clientID: "app", now: t0))
        #expect(try !store.consumeNonce(nonceHash: hash("n1"), clientID: "app", now: t0))
        #expect(try !store.consumeNonce(nonceHash: hash("n2"), clientID: "app", now: t0.addingTimeInterval(300)))
        #expect(try !store.consumeNonce(nonceHash: hash("n3"), clientID: "app", now: t0))
    }

    @Test(arguments: Backend.allCases)
    func throttleSlidingWindow(_ backend: Backend) throws {
        let store = try backend.make().throttle
        #expect(try store.hit(key: "acct:x", windowSeconds: 60, now: t0) == 1)
        #expect(try store.hit(key: "acct:x", windowSeconds: 60, now: t0.addingTimeInterval(10)) == 2)
        #expect(try store.hit(key: "acct:x", windowSeconds: 60, now: t0.addingTimeInterval(59)) == 3)
        #expect(try store.hit(key: "ip:y", windowSeconds: 60, now: t0.addingTimeInterval(59)) == 1)
        // At +60 the hit from t0 leaves the window (exclusive start).
        #expect(try store.hitCount(key: "acct:x", windowSeconds: 60, now: t0.addingTimeInterval(60)) == 2)
        #expect(try store.hit(key: "acct:x", windowSeconds: 60, now: t0.addingTimeInterval(60)) == 3)
        #expect(try store.hitCount(key: "acct:x", windowSeconds: 60, now: t0.addingTimeInterval(200)) == 0)
        #expect(try store.hit(key: "acct:x", windowSeconds: 60, now: t0.addingTimeInterval(200)) == 1)
        try store.resetHits(key: "acct:x")
        #expect(try store.hitCount(key: "acct:x", windowSeconds: 60, now: t0.addingTimeInterval(200)) == 0)
        #expect(try store.hitCount(key: "ip:y", windowSeconds: 600, now: t0.addingTimeInterval(200)) == 1)
    }

    @Test(arguments: Backend.allCases)
    func throttleHitIfUnderRecordsOnAllKeysOrNone(_ backend: Backend) throws {
        let store = try backend.make().throttle
        let tight = ThrottleLimit(key: "pair:x", limit: 2, windowSeconds: 60)
        let loose = ThrottleLimit(key: "acct:x", limit: 100, windowSeconds: 600)
        #expect(try store.hitIfUnder([tight, loose], now: t0))
        #expect(try store.hitIfUnder([tight, loose], now: t0.addingTimeInterval(1)))
        // Full: refused, and nothing is recorded on either key.
        #expect(try !store.hitIfUnder([tight, loose], now: t0.addingTimeInterval(2)))
        #expect(try store.hitCount(key: "pair:x", windowSeconds: 60, now: t0.addingTimeInterval(2)) == 2)
        #expect(try store.hitCount(key: "acct:x", windowSeconds: 600, now: t0.addingTimeInterval(2)) == 2)
        // Giving one back (exact time) makes room again; a time with no hit removes nothing.
        try store.removeHit(keys: ["pair:x", "acct:x"], at: t0.addingTimeInterval(1))
        try store.removeHit(keys: ["pair:x"], at: t0.addingTimeInterval(30))
        #expect(try store.hitCount(key: "pair:x", windowSeconds: 60, now: t0.addingTimeInterval(2)) == 1)
        #expect(try store.hitCount(key: "acct:x", windowSeconds: 600, now: t0.addingTimeInterval(2)) == 1)
        #expect(try store.hitIfUnder([tight], now: t0.addingTimeInterval(3)))
        // The window slides: at +60 the first hit is out.
        #expect(try store.hitIfUnder([tight], now: t0.addingTimeInterval(60)))
        #expect(try !store.hitIfUnder([tight], now: t0.addingTimeInterval(61)))
    }

    @Test(arguments: Backend.allCases)
    func purgeRemovesOnlyWhatIsOld(_ backend: Backend) throws {
        let storage = try backend.make()
        let day: Double = 86_400
        try storage.codes.insertCode(Fixture.code("old-code", expiresIn: 300))
        try storage.codes.insertCode(Fixture.code("new-code", expiresIn: 3 * day))
        try storage.refreshTokens.createGrant(Fixture.grant("old", lifetime: 300))
        try storage.refreshTokens.insertRefreshToken(Fixture.token("old-rt", grant: "old"))
        try storage.refreshTokens.createGrant(Fixture.grant("new", lifetime: 30 * day))
        try storage.refreshTokens.insertRefreshToken(Fixture.token("new-rt", grant: "new"))
        try storage.sessions.insertSession(Fixture.session("old-s"))
        try storage.nonces.insertNonce(nonceHash: hash("n"), clientID: "app", createdAt: t0, expiresAt: t0.addingTimeInterval(60))
        try storage.authorizationRequests.insertPendingAuthorization(PendingAuthorizationRecord(
            idHash: hash("r"), clientID: "app", payload: "{}", createdAt: t0, expiresAt: t0.addingTimeInterval(600)))
        _ = try storage.throttle.hit(key: "k", windowSeconds: 60, now: t0)

        // old-code, grant old + old-rt, session, nonce, request, throttle hit.
        #expect(try storage.purge(before: t0.addingTimeInterval(2 * day)) == 7)
        #expect(try storage.codes.consumeCode(codeHash: hash("old-code"), now: t0) == .notFound)
        guard case .consumed = try storage.codes.consumeCode(codeHash: hash("new-code"), now: t0) else {
            Issue.record("new code should have survived")
            return
        }
        #expect(try storage.refreshTokens.refreshToken(hash: hash("old-rt"), grantID: "old") == nil)
        #expect(try storage.refreshTokens.refreshToken(hash: hash("new-rt"), grantID: "new") != nil)
        #expect(try storage.purge(before: t0.addingTimeInterval(2 * day)) == 0)
    }
}
