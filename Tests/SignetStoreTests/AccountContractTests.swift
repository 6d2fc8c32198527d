import Foundation
import SignetStore
import SignetTesting
import Testing

/// What the account page and account deletion read: a user's active sessions and refresh
/// grants, and the sealed upstream token kept on a link.
@Suite("Contract: the account page's reads", .endToEndLimit)
struct AccountContractTests {
    @Test(arguments: Backend.allCases)
    func activeSessionsAreTheUsersUsableOnesMostRecentFirst(_ backend: Backend) throws {
        let store = try backend.make().sessions
        try store.insertSession(Fixture.session("old"))
        var recent = Fixture.session("recent")
        recent.lastSeenAt = t0.addingTimeInterval(60)
        try store.insertSession(recent)
        try store.insertSession(Fixture.session("ended"))
        try store.endSession(idHash: hash("ended"), now: t0)
        try store.insertSession(Fixture.session("someone else", user: "user-2"))
        let active = try store.activeSessions(userID: "user-1", now: t0.addingTimeInterval(120))
        #expect(active.map(\.idHash) == [hash("recent"), hash("old")])
        #expect(try store.activeSessions(userID: "user-1", now: t0.addingTimeInterval(1_800)).isEmpty)   // idle
    }

    @Test(arguments: Backend.allCases)
    func activeRefreshGrantsHaveARefreshTokenAndAreNotRevoked(_ backend: Backend) throws {
        let store = try backend.make().refreshTokens
        for id in ["with-token", "no-token", "revoked", "other-user"] {
            try store.createGrant(Fixture.grant(id, user: id == "other-user" ? "user-2" : "user-1"))
        }
        try store.insertRefreshToken(Fixture.token("t1", grant: "with-token"))
        try store.insertRefreshToken(Fixture.token("t2", grant: "revoked"))
        try store.insertRefreshToken(Fixture.token("t3", grant: "other-user"))
        try store.revokeGrant(id: "revoked", reason: "user_revoked", now: t0)
        #expect(try store.activeRefreshGrants(userID: "user-1", now: t0).map(\.grantID) == ["with-token"])
        #expect(try store.activeRefreshGrants(userID: "user-1", now: t0.addingTimeInterval(86_400)).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func anUpstreamTokenIsKeptOnItsLinkAndGoesWithIt(_ backend: Backend) throws {
        let storage = try backend.make()
        let users = storage.users
        try users.insertUser(Fixture.user("user-1", email: "ada@example.com"))
        let link = FederatedIdentityRecord(connectionID: "apple", issuer: "https://appleid.apple.com", subject: "a-1",
                                           userID: "user-1", createdAt: t0)
        try users.insertFederatedIdentity(link)
        #expect(try users.setUpstreamToken(connectionID: "apple", issuer: link.issuer, subject: "a-1", sealed: [1, 2, 3]))
        #expect(try !users.setUpstreamToken(connectionID: "apple", issuer: link.issuer, subject: "nobody", sealed: [9]))
        let kept = try users.upstreamTokens(userID: "user-1")
        #expect(kept.count == 1)
        #expect(kept.first?.identity == link)
        #expect(kept.first?.sealed == [1, 2, 3])
        try users.setUpstreamToken(connectionID: "apple", issuer: link.issuer, subject: "a-1", sealed: nil)
        #expect(try users.upstreamTokens(userID: "user-1").isEmpty)
        try users.setUpstreamToken(connectionID: "apple", issuer: link.issuer, subject: "a-1", sealed: [4])
        #expect(try users.deleteUser(id: "user-1"))
        #expect(try users.upstreamTokens(userID: "user-1").isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func anEmailChangeIsConditionalUniqueAndStoredWithItsNotice(_ backend: Backend) throws {
        let storage = try backend.make()
        let users = storage.users
        try users.insertUser(Fixture.user("user-1", email: "ada@example.com"))
        try users.insertUser(Fixture.user("user-2", email: "bob@example.com"))
        let notice = OutboxMessageRecord(id: "notice-1", sealedMessage: [1], createdAt: t0)
        // Another account's address: refused, and the notice is not stored (one transaction).
        #expect(throws: StoreError.duplicate) {
            try users.changeEmail(userID: "user-1", from: "ada@example.com", to: "bob@example.com", now: t0, notice: notice)
        }
        #expect(try storage.mailOutbox.message(id: "notice-1") == nil)
        // An old address that is no longer the account's: nothing changes.
        #expect(try !users.changeEmail(userID: "user-1", from: "old@example.com", to: "new@example.com", now: t0, notice: notice))
        #expect(try !users.changeEmail(userID: "nobody", from: "ada@example.com", to: "new@example.com", now: t0, notice: notice))
        #expect(try storage.mailOutbox.message(id: "notice-1") == nil)
        #expect(try users.changeEmail(userID: "user-1", from: "ada@example.com", to: "new@example.com", now: t0, notice: notice))
        let changed = try #require(try users.user(id: "user-1"))
        #expect(changed.email == "new@example.com" && changed.emailVerified)
        #expect(try users.user(email: "ada@example.com") == nil)
        #expect(try storage.mailOutbox.message(id: "notice-1") == notice)
        // Done once: the same change again finds the old address gone.
        #expect(try !users.changeEmail(userID: "user-1", from: "ada@example.com", to: "new@example.com", now: t0, notice: nil))
    }
}
