import Foundation
import SignetCore
import SignetStore
import Testing

@Suite struct SignInServiceTests {
    func service(_ f: CoreFixture) -> SignInService {
        SignInService(server: f.server, users: f.users, hashKey: [UInt8](repeating: 1, count: 32))
    }

    @Test func correctCredentialsSignIn() throws {
        let f = try CoreFixture()
        let user = try f.makeUser()
        #expect(try service(f).signIn(email: "  Alice@Example.COM ", password: CoreFixture.password, clientAddress: "10.0.0.1")?.id == user.id)
    }

    @Test func everyKindOfFailureIsNil() throws {
        let f = try CoreFixture()
        let user = try f.makeUser()
        _ = try f.users.create(email: "nopass@example.com", password: nil)
        let signIn = service(f)
        #expect(try signIn.signIn(email: "alice@example.com", password: "wrong password", clientAddress: "a") == nil)
        #expect(try signIn.signIn(email: "nobody@example.com", password: CoreFixture.password, clientAddress: "a") == nil)
        #expect(try signIn.signIn(email: "not an email", password: CoreFixture.password, clientAddress: "a") == nil)
        #expect(try signIn.signIn(email: "nopass@example.com", password: "", clientAddress: "a") == nil)
        try f.users.disable(userID: user.id)
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "b") == nil)
    }

    @Test func fiveFailuresFromOneAddressBlockThatAddressButNotTheOwnerElsewhere() throws {
        let f = try CoreFixture()
        let user = try f.makeUser()
        let signIn = service(f)
        for attempt in 0..<5 {
            #expect(try signIn.signIn(email: "alice@example.com", password: "guess \(attempt)", clientAddress: "198.51.100.7") == nil)
        }
        // The guesser's address is refused even the right password, without a password check.
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "198.51.100.7") == nil)
        #expect(try f.storage.audit.recentAudit(limit: 100).filter { $0.event == "sign_in_throttled" }.count == 1)
        // The owner, from another address, is not locked out.
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "192.0.2.9")?.id == user.id)
        f.clock.advance(by: 901)
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "198.51.100.7")?.id == user.id)
    }

    /// Spread over many addresses, a guesser makes the account "under attack": each address then
    /// gets one failure per window for it, while the owner on a fresh address still gets in.
    @Test func aSpreadOutGuesserIsSlowedButCannotLockTheOwnerOut() throws {
        let f = try CoreFixture { $0.signInAccountAttackThreshold = 10 }
        let user = try f.makeUser()
        let signIn = service(f)
        for index in 0..<10 {
            #expect(try signIn.signIn(email: "alice@example.com", password: "guess", clientAddress: "198.51.100.\(index)") == nil)
        }
        func failures() throws -> Int { try f.storage.audit.recentAudit(limit: 1000).filter { $0.event == "sign_in_failed" }.count }
        #expect(try failures() == 10)
        // A new guessing address: one password check, then refused.
        #expect(try signIn.signIn(email: "alice@example.com", password: "guess", clientAddress: "203.0.113.1") == nil)
        #expect(try signIn.signIn(email: "alice@example.com", password: "guess", clientAddress: "203.0.113.1") == nil)
        #expect(try failures() == 11)
        // An address that already failed once for the account is done for the window.
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "198.51.100.0") == nil)
        // The owner on a fresh address signs in at the first try.
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "192.0.2.9")?.id == user.id)
    }

    @Test func successClearsTheAccountCounter() throws {
        let f = try CoreFixture()
        _ = try f.makeUser()
        let signIn = service(f)
        for _ in 0..<4 { _ = try signIn.signIn(email: "alice@example.com", password: "nope", clientAddress: "a") }
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "a") != nil)
        for _ in 0..<4 { _ = try signIn.signIn(email: "alice@example.com", password: "nope", clientAddress: "b") }
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "b") != nil)
    }

    @Test func addressThrottlingSpansAccounts() throws {
        let f = try CoreFixture { $0.signInAddressFailureLimit = 3 }
        _ = try f.makeUser()
        let signIn = service(f)
        for index in 0..<3 { _ = try signIn.signIn(email: "user\(index)@example.com", password: "x", clientAddress: "203.0.113.5") }
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "203.0.113.5") == nil)
        #expect(try signIn.signIn(email: "alice@example.com", password: CoreFixture.password, clientAddress: "203.0.113.6") != nil)
    }

    @Test func throttleKeysDoNotContainTheEmailOrAddress() throws {
        let f = try CoreFixture()
        _ = try service(f).signIn(email: "alice@example.com", password: "x", clientAddress: "203.0.113.5")
        // The counters exist under hashed keys only.
        #expect(try f.storage.throttle.hitCount(key: "signin:account:alice@example.com", windowSeconds: 900, now: f.clock.now) == 0)
        let events = try f.storage.audit.recentAudit(limit: 10)
        #expect(events.contains { $0.event == "sign_in_failed" })
        #expect(!events.contains { $0.detail.contains("alice") })
    }
}

@Suite struct UserServiceTests {
    @Test func emailsAreNormalizedAndValidated() throws {
        #expect(try UserService.normalizeEmail("  Alice@Example.COM\n") == "alice@example.com")
        for bad in ["", "alice", "@example.com", "alice@", "alice@example", "a b@example.com", "alice@@example.com",
                    "<script>@example.com", "alice@example..com", "alice@-example.com"] {
            #expect(throws: UserServiceError.self, "\(bad)") { try UserService.normalizeEmail(bad) }
        }
    }

    @Test func createStoresAnArgon2idHashAndRefusesDuplicates() throws {
        let f = try CoreFixture()
        let user = try f.users.create(email: "Alice@Example.com", name: " Alice ", password: CoreFixture.password)
        #expect(user.email == "alice@example.com")
        #expect(user.name == "Alice")
        #expect(user.passwordHash?.hasPrefix("$argon2id$v=19$m=8192,t=1,") == true)
        #expect(user.id.count == 22)
        #expect(throws: UserServiceError.self) { try f.users.create(email: "alice@example.com", password: CoreFixture.password) }
        #expect(throws: UserServiceError.self) { try f.users.create(email: "bob@example.com", password: "short") }
        #expect(try f.users.find("ALICE@example.com")?.id == user.id)
        #expect(try f.users.find(user.id)?.id == user.id)
    }

    @Test func setPasswordReplacesThePassword() throws {
        let f = try CoreFixture()
        let user = try f.makeUser()
        try f.users.setPassword(userID: user.id, password: "a brand new secret")
        #expect(try f.users.authenticate(email: "alice@example.com", password: CoreFixture.password) == nil)
        #expect(try f.users.authenticate(email: "alice@example.com", password: "a brand new secret")?.id == user.id)
        #expect(throws: UserServiceError.self) { try f.users.setPassword(userID: "nobody", password: "long enough password") }
    }

    @Test func disableEndsSessionsAndRevokesGrants() throws {
        let f = try CoreFixture()
        let user = try f.makeUser()
        let browser = try f.signedIn(user)
        let now = f.clock.now
        try f.storage.refreshTokens.createGrant(GrantRecord(
            grantID: "g1",
            terms: GrantTerms(clientID: "first", userID: user.id, scope: "openid", authTime: now, sessionID: browser.session.publicID),
            createdAt: now,
            absoluteExpiresAt: now.addingTimeInterval(3600)))
        let result = try f.users.disable(userID: user.id)
        #expect(result.sessions == 1)
        #expect(result.grants == 1)
        #expect(try f.storage.refreshTokens.isGrantActive(id: "g1", now: f.clock.now) == false)
        #expect(try f.storage.sessions.session(idHash: browser.session.record.idHash, now: f.clock.now) == nil)
        #expect(try f.users.authenticate(email: user.email, password: CoreFixture.password) == nil)
        try f.users.enable(userID: user.id)
        #expect(try f.users.authenticate(email: user.email, password: CoreFixture.password)?.id == user.id)
    }
}

@Suite struct CSRFTokensTests {
    @Test func theFieldIsBoundToTheCookieAndThePurpose() {
        let csrf = CSRFTokens(key: [UInt8](repeating: 9, count: 32), random: SystemRandomSource())
        let cookie = csrf.newBrowserValue()
        let token = csrf.token(browserValue: cookie, purpose: "sgq_abc")
        #expect(csrf.verify(token: token, browserValue: cookie, purpose: "sgq_abc"))
        #expect(!csrf.verify(token: token, browserValue: cookie, purpose: "sgq_abd"))
        #expect(!csrf.verify(token: token, browserValue: csrf.newBrowserValue(), purpose: "sgq_abc"))
        #expect(!csrf.verify(token: nil, browserValue: cookie, purpose: "sgq_abc"))
        #expect(!csrf.verify(token: token, browserValue: nil, purpose: "sgq_abc"))
        #expect(!csrf.verify(token: "", browserValue: "", purpose: "sgq_abc"))
        let other = CSRFTokens(key: [UInt8](repeating: 8, count: 32), random: SystemRandomSource())
        #expect(!other.verify(token: token, browserValue: cookie, purpose: "sgq_abc"))
    }
}
