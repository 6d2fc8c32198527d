import Foundation
import SignetStore
import SignetTesting
import Testing

@Suite("Contract: pending requests and codes", .endToEndLimit)
struct AuthorizationContractTests {
    @Test(arguments: Backend.allCases)
    func pendingRequestLifecycle(_ backend: Backend) throws {
        let store = try backend.make().authorizationRequests
        let request = PendingAuthorizationRecord(idHash: hash("req-1"), clientID: "app", payload: #"{"state":"s"}"#,
                                                 createdAt: t0, expiresAt: t0.addingTimeInterval(600))
        try store.insertPendingAuthorization(request)
        #expect(throws: StoreError.duplicate) { try store.insertPendingAuthorization(request) }

        #expect(try store.pendingAuthorization(idHash: hash("req-1"), now: t0) == request)
        #expect(try store.pendingAuthorization(idHash: hash("req-1"), now: t0.addingTimeInterval(599)) == request)
        #expect(try store.pendingAuthorization(idHash: hash("req-1"), now: t0.addingTimeInterval(600)) == nil)
        #expect(try store.pendingAuthorization(idHash: hash("other"), now: t0) == nil)

        #expect(try store.consumePendingAuthorization(idHash: hash("req-1"), now: t0.addingTimeInterval(600)) == nil)
        var consumed = request
        consumed.consumedAt = t0.addingTimeInterval(30)
        #expect(try store.consumePendingAuthorization(idHash: hash("req-1"), now: t0.addingTimeInterval(30)) == consumed)
        #expect(try store.consumePendingAuthorization(idHash: hash("req-1"), now: t0.addingTimeInterval(31)) == nil)
        #expect(try store.pendingAuthorization(idHash: hash("req-1"), now: t0.addingTimeInterval(31)) == nil)

        #expect(try store.deletePendingAuthorization(idHash: hash("req-1")))
        #expect(try !store.deletePendingAuthorization(idHash: hash("req-1")))
    }

    @Test(arguments: Backend.allCases)
    func unredeemedCodesOfAUserCanBeDeleted(_ backend: Backend) throws {
        let store = try backend.make().codes
        try store.insertCode(Fixture.code("mine-open"))
        try store.insertCode(Fixture.code("mine-redeemed"))
        var other = Fixture.code("other-open")
        other.userID = "user-2"
        try store.insertCode(other)
        guard case .consumed = try store.consumeCode(codeHash: hash("mine-redeemed"), now: t0) else {
            Issue.record("the code was not redeemed")
            return
        }
        #expect(try store.deleteUnredeemedCodes(userID: "user-1") == 1)
        #expect(try store.consumeCode(codeHash: hash("mine-open"), now: t0) == .notFound)
        // A redeemed code stays, so its replay is still recognised; another user's code is untouched.
        guard case .alreadyConsumed = try store.consumeCode(codeHash: hash("mine-redeemed"), now: t0) else {
            Issue.record("the redeemed code is gone")
            return
        }
        guard case .consumed = try store.consumeCode(codeHash: hash("other-open"), now: t0) else {
            Issue.record("another user's code was deleted")
            return
        }
        #expect(try store.deleteUnredeemedCodes(userID: "user-1") == 0)
    }

    @Test(arguments: Backend.allCases)
    func codeIsSingleUse(_ backend: Backend) throws {
        let store = try backend.make().codes
        let code = Fixture.code("code-1")
        try store.insertCode(code)
        #expect(throws: StoreError.duplicate) { try store.insertCode(code) }

        var redeemed = code
        redeemed.consumedAt = t0.addingTimeInterval(10)
        #expect(try store.consumeCode(codeHash: hash("code-1"), now: t0.addingTimeInterval(10)) == .consumed(redeemed))
        #expect(try store.consumeCode(codeHash: hash("code-1"), now: t0.addingTimeInterval(11)) == .alreadyConsumed(redeemed))
        // A replay after expiry is still a replay, so the grant gets revoked.
        #expect(try store.consumeCode(codeHash: hash("code-1"), now: t0.addingTimeInterval(900)) == .alreadyConsumed(redeemed))
        #expect(try store.consumeCode(codeHash: hash("nope"), now: t0) == .notFound)
    }

    /// A look at a code changes nothing; a redemption with its family is one write: the code
    /// redeemed, the grant and its first token stored, or (a family that is not the code's) none
    /// of them. (A first token cannot collide since migration 19: a token is keyed under its new
    /// family, which has no token yet.)
    @Test(arguments: Backend.allCases)
    func aCodeAndTheFamilyItStartsAreOneWrite(_ backend: Backend) throws {
        let storage = try backend.make()
        let store = storage.codes
        let code = Fixture.code("code-f", grantID: "g-f")
        try store.insertCode(code)
        #expect(try store.code(codeHash: hash("code-f")) == code)
        #expect(try store.code(codeHash: hash("nope")) == nil)

        #expect(throws: StoreError.corrupt("the grant family to store is not the code's")) {
            try store.redeemCode(codeHash: hash("code-f"), now: t0.addingTimeInterval(5), grant: Fixture.grant("g-other"),
                                 firstToken: nil)
        }
        #expect(try storage.refreshTokens.grant(id: "g-f") == nil)
        #expect(try store.code(codeHash: hash("code-f")) == code, "a failed redemption leaves the code unredeemed")

        var redeemed = code
        redeemed.consumedAt = t0.addingTimeInterval(10)
        #expect(try store.redeemCode(codeHash: hash("code-f"), now: t0.addingTimeInterval(10), grant: Fixture.grant("g-f"),
                                     firstToken: Fixture.token("rt-f", grant: "g-f")) == .consumed(redeemed))
        #expect(try storage.refreshTokens.grant(id: "g-f") == Fixture.grant("g-f"))
        #expect(try storage.refreshTokens.refreshToken(hash: hash("rt-f"), grantID: "g-f") == Fixture.token("rt-f", grant: "g-f"))
        #expect(try store.code(codeHash: hash("code-f")) == redeemed)
        // Once redeemed, every later redemption is a replay and writes nothing.
        #expect(try store.redeemCode(codeHash: hash("code-f"), now: t0.addingTimeInterval(11), grant: Fixture.grant("g-f"),
                                     firstToken: Fixture.token("rt-g", grant: "g-f")) == .alreadyConsumed(redeemed))
        #expect(try storage.refreshTokens.refreshToken(hash: hash("rt-g"), grantID: "g-f") == nil)
        #expect(try store.redeemCode(codeHash: hash("nope"), now: t0, grant: Fixture.grant("g-n"), firstToken: nil) == .notFound)
        #expect(try storage.refreshTokens.grant(id: "g-n") == nil)
        try store.insertCode(Fixture.code("code-old", grantID: "g-old", expiresIn: 300))
        #expect(try store.redeemCode(codeHash: hash("code-old"), now: t0.addingTimeInterval(300), grant: Fixture.grant("g-old"),
                                     firstToken: nil) == .expired)
        #expect(try storage.refreshTokens.grant(id: "g-old") == nil)
    }

    @Test(arguments: Backend.allCases)
    func expiredCodeIsNotRedeemed(_ backend: Backend) throws {
        let store = try backend.make().codes
        try store.insertCode(Fixture.code("code-2", expiresIn: 300))
        #expect(try store.consumeCode(codeHash: hash("code-2"), now: t0.addingTimeInterval(300)) == .expired)
        #expect(try store.consumeCode(codeHash: hash("code-2"), now: t0.addingTimeInterval(301)) == .expired)
        // Still redeemable by a clock that has not passed expiry: expiry did not consume it.
        guard case .consumed = try store.consumeCode(codeHash: hash("code-2"), now: t0.addingTimeInterval(299)) else {
            Issue.record("expected .consumed")
            return
        }
    }

    @Test(arguments: Backend.allCases)
    func codeReplayRevokesGrant(_ backend: Backend) throws {
        let storage = try backend.make()
        let code = Fixture.code("code-3", grantID: "g-replay")
        try storage.codes.insertCode(code)
        guard case .consumed(let first) = try storage.codes.consumeCode(codeHash: code.codeHash, now: t0) else {
            Issue.record("expected .consumed")
            return
        }
        try storage.refreshTokens.createGrant(Fixture.grant(first.grantID))
        guard case .alreadyConsumed(let replayed) = try storage.codes.consumeCode(codeHash: code.codeHash, now: t0) else {
            Issue.record("expected .alreadyConsumed")
            return
        }
        try storage.refreshTokens.revokeGrant(issuedFrom: replayed, reason: RevokeReason.codeReplay, now: t0)
        #expect(try !storage.refreshTokens.isGrantActive(id: "g-replay", now: t0))
        #expect(try storage.refreshTokens.grant(id: "g-replay")?.revokeReason == RevokeReason.codeReplay)
    }

    @Test(arguments: Backend.allCases)
    func codeReplayBeforeGrantExistsBlocksTheGrant(_ backend: Backend) throws {
        let storage = try backend.make()
        let code = Fixture.code("code-4", grantID: "g-early")
        try storage.refreshTokens.revokeGrant(issuedFrom: code, reason: RevokeReason.codeReplay, now: t0)
        #expect(throws: StoreError.duplicate) { try storage.refreshTokens.createGrant(Fixture.grant("g-early")) }
        let tombstone = try #require(try storage.refreshTokens.grant(id: "g-early"))
        #expect(tombstone.revokedAt == t0 && tombstone.clientID == "app" && tombstone.userID == "user-1")
        // A second revocation keeps the first reason.
        try storage.refreshTokens.revokeGrant(issuedFrom: code, reason: "other", now: t0.addingTimeInterval(5))
        #expect(try storage.refreshTokens.grant(id: "g-early")?.revokeReason == RevokeReason.codeReplay)
        #expect(try storage.refreshTokens.grant(id: "g-early")?.revokedAt == t0)
    }
}
