import Foundation
import SignetCore
import SignetCrypto
import SignetStore
import Testing

@Suite struct UserServiceRevocationTests {
    /// A user with an SSO session and a live grant family.
    func signedInWithGrant(_ f: CoreFixture) throws -> (UserRecord, (token: String, session: ActiveSession)) {
        let user = try f.makeUser()
        let browser = try f.signedIn(user)
        try f.storage.refreshTokens.createGrant(GrantRecord(
            grantID: "g-1",
            terms: GrantTerms(clientID: "web", userID: user.id, scope: "openid offline_access", authTime: f.clock.now),
            createdAt: f.clock.now,
            absoluteExpiresAt: f.clock.now.addingTimeInterval(3600)))
        return (user, browser)
    }

    @Test func aPasswordChangeEndsSessionsAndRevokesGrants() throws {
        let f = try CoreFixture()
        let (user, browser) = try signedInWithGrant(f)
        let result = try f.users.setPassword(userID: user.id, password: "a brand new password")
        #expect(result.sessions == 1)
        #expect(result.grants == 1)
        #expect(try f.flow.sessions.active(token: browser.token) == nil)
        #expect(try f.storage.refreshTokens.grant(id: "g-1")?.revokeReason == RevokeReason.passwordChanged)
        #expect(try !f.storage.refreshTokens.isGrantActive(id: "g-1", now: f.clock.now))
    }

    @Test func disablingEndsSessionsAndRevokesGrants() throws {
        let f = try CoreFixture()
        let (user, browser) = try signedInWithGrant(f)
        let result = try f.users.disable(userID: user.id)
        #expect(result.sessions == 1 && result.grants == 1)
        #expect(try f.flow.sessions.active(token: browser.token) == nil)
        #expect(try f.storage.refreshTokens.grant(id: "g-1")?.revokeReason == RevokeReason.userDisabled)
    }

    /// Re-hashing at sign-in under new cost parameters stores the same password: nothing ends.
    @Test func aRehashAtSignInEndsNothing() throws {
        let f = try CoreFixture()
        let (user, browser) = try signedInWithGrant(f)
        let stronger = UserService(storage: f.storage, passwordParameters: Argon2idParameters(opsLimit: 2, memLimitBytes: 8 * 1024 * 1024),
                                   clock: f.clock, random: SystemRandomSource())
        #expect(try stronger.authenticate(email: user.email, password: CoreFixture.password) != nil)
        #expect(try f.storage.users.user(id: user.id)?.passwordHash != user.passwordHash)
        #expect(try f.flow.sessions.active(token: browser.token) != nil)
        #expect(try f.storage.refreshTokens.isGrantActive(id: "g-1", now: f.clock.now))
    }
}
