import Foundation
import SignetStore
import SignetTesting
import Testing

@Suite("Contract: users and federated identities", .endToEndLimit)
struct UserContractTests {
    @Test(arguments: Backend.allCases)
    func insertAndLookUp(_ backend: Backend) throws {
        let store = try backend.make().users
        try store.insertUser(Fixture.user("u2", email: "Zed@Example.com"))
        try store.insertUser(Fixture.user("u1", email: "ada@example.com"))
        #expect(throws: StoreError.duplicate) { try store.insertUser(Fixture.user("u3", email: "ADA@example.com")) }
        #expect(throws: StoreError.duplicate) { try store.insertUser(Fixture.user("u1", email: "other@example.com")) }

        let zed = try #require(try store.user(id: "u2"))
        #expect(zed.email == "zed@example.com")
        #expect(try store.user(email: "ZED@example.COM")?.id == "u2")
        #expect(try store.user(email: "nobody@example.com") == nil)
        #expect(try store.user(id: "nobody") == nil)
        #expect(try store.allUsers().map(\.id) == ["u1", "u2"])
        #expect(try store.user(id: "u1") == Fixture.user("u1", email: "ada@example.com"))
    }

    /// A bearer token's lookup: the grant's state and the user in one read; no user while the
    /// grant is revoked, expired or unknown.
    @Test(arguments: Backend.allCases)
    func userIfGrantActive(_ backend: Backend) throws {
        let storage = try backend.make()
        let ada = Fixture.user("user-1", email: "ada@example.com")
        try storage.users.insertUser(ada)
        try storage.refreshTokens.createGrant(Fixture.grant("g"))
        let found = try storage.users.user(id: "user-1", ifGrantActive: "g", now: t0)
        #expect(found.grantActive && found.user == ada)
        let unknownUser = try storage.users.user(id: "nobody", ifGrantActive: "g", now: t0)
        #expect(unknownUser.grantActive && unknownUser.user == nil)
        let expired = try storage.users.user(id: "user-1", ifGrantActive: "g", now: t0.addingTimeInterval(86_400))
        #expect(!expired.grantActive && expired.user == nil)
        let unknownGrant = try storage.users.user(id: "user-1", ifGrantActive: "ghost", now: t0)
        #expect(!unknownGrant.grantActive && unknownGrant.user == nil)
        #expect(try storage.refreshTokens.revokeGrant(id: "g", reason: "test", now: t0))
        let revoked = try storage.users.user(id: "user-1", ifGrantActive: "g", now: t0)
        #expect(!revoked.grantActive && revoked.user == nil)
    }

    /// A page in the store: ordered by id, after a cursor, filtered by email or name with LIKE's
    /// wildcards taken literally.
    @Test(arguments: Backend.allCases)
    func pagesAndFilters(_ backend: Backend) throws {
        let store = try backend.make().users
        for (id, email) in [("u3", "c_d@example.com"), ("u1", "ada@example.com"), ("u2", "bob@example.org"), ("u4", "cxd@example.com")] {
            try store.insertUser(Fixture.user(id, email: email))
        }
        #expect(try store.users(after: nil, matching: nil, limit: 2).map(\.id) == ["u1", "u2"])
        #expect(try store.users(after: "u2", matching: nil, limit: 2).map(\.id) == ["u3", "u4"])
        #expect(try store.users(after: "u4", matching: nil, limit: 2).isEmpty)
        #expect(try store.users(after: nil, matching: "EXAMPLE.ORG", limit: 10).map(\.id) == ["u2"])
        #expect(try store.users(after: nil, matching: "c_d", limit: 10).map(\.id) == ["u3"])
        #expect(try store.users(after: nil, matching: "%", limit: 10).isEmpty)
        #expect(try store.users(after: "u1", matching: "example.com", limit: 10).map(\.id) == ["u3", "u4"])
        #expect(try store.users(after: nil, matching: nil, limit: 0).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func updates(_ backend: Backend) throws {
        let store = try backend.make().users
        try store.insertUser(Fixture.user("u1", email: "ada@example.com"))
        let later = t0.addingTimeInterval(60)

        try store.setPassword(userID: "u1", passwordHash: "$argon2id$new", now: later)
        #expect(try store.user(id: "u1")?.passwordHash == "$argon2id$new")
        #expect(try store.user(id: "u1")?.updatedAt == later)
        try store.setPassword(userID: "u1", passwordHash: nil, now: later)
        #expect(try store.user(id: "u1")?.passwordHash == nil)

        try store.setDisabled(userID: "u1", disabledAt: later, now: later)
        #expect(try store.user(id: "u1")?.disabledAt == later)
        try store.setDisabled(userID: "u1", disabledAt: nil, now: later)
        #expect(try store.user(id: "u1")?.disabledAt == nil)

        try store.updateProfile(userID: "u1", name: nil, givenName: "A", familyName: nil, emailVerified: false, now: later)
        let user = try #require(try store.user(id: "u1"))
        #expect(user.name == nil && user.givenName == "A" && user.familyName == nil && !user.emailVerified)
        #expect(user.createdAt == t0)

        #expect(throws: StoreError.notFound) { try store.setPassword(userID: "x", passwordHash: nil, now: later) }
        #expect(throws: StoreError.notFound) { try store.setDisabled(userID: "x", disabledAt: nil, now: later) }
        #expect(throws: StoreError.notFound) {
            try store.updateProfile(userID: "x", name: nil, givenName: nil, familyName: nil, emailVerified: true, now: later)
        }
        #expect(!user.description.contains("ada@"))
    }

    @Test(arguments: Backend.allCases)
    func federatedIdentities(_ backend: Backend) throws {
        let store = try backend.make().users
        try store.insertUser(Fixture.user("u1", email: "ada@example.com"))
        let google = FederatedIdentityRecord(connectionID: "google", issuer: "https://accounts.google.com",
                                             subject: "1234", userID: "u1", email: "ada@gmail.com", createdAt: t0)
        let github = FederatedIdentityRecord(connectionID: "github", issuer: "https://github.com", subject: "42",
                                             userID: "u1", createdAt: t0.addingTimeInterval(5))
        try store.insertFederatedIdentity(google)
        try store.insertFederatedIdentity(github)
        #expect(throws: StoreError.duplicate) { try store.insertFederatedIdentity(google) }
        var orphan = google
        orphan.subject = "999"
        orphan.userID = "ghost"
        #expect(throws: StoreError.notFound) { try store.insertFederatedIdentity(orphan) }

        #expect(try store.federatedIdentity(connectionID: "google", issuer: "https://accounts.google.com",
                                            subject: "1234") == google)
        #expect(try store.federatedIdentity(connectionID: "google", issuer: "https://evil.example",
                                            subject: "1234") == nil)
        #expect(try store.federatedIdentities(userID: "u1") == [google, github])
        #expect(try store.federatedIdentities(userID: "u2").isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func unlinkingAndDeletingTouchOnlyThatUser(_ backend: Backend) throws {
        let storage = try backend.make()
        let users = storage.users
        try storage.clients.upsertClient(Fixture.client("app"))
        for (id, email) in [("user-1", "ada@example.com"), ("user-2", "bob@example.com")] {
            try users.insertUser(Fixture.user(id, email: email))
            for connection in ["google", "apple"] {
                try users.insertFederatedIdentity(FederatedIdentityRecord(connectionID: connection, issuer: "https://\(connection).example",
                                                                          subject: "\(connection)-\(id)", userID: id, createdAt: t0))
            }
            try storage.sessions.insertSession(Fixture.session("s-\(id)", user: id))
            try storage.consents.putConsent(ConsentRecord(userID: id, clientID: "app", scopes: ["openid"], grantedAt: t0))
            try storage.refreshTokens.createGrant(Fixture.grant("g-\(id)", user: id))
            try storage.refreshTokens.insertRefreshToken(Fixture.token("r-\(id)", grant: "g-\(id)"))
            var code = Fixture.code("c-\(id)", grantID: "g-\(id)")
            code.userID = id
            try storage.codes.insertCode(code)
        }
        #expect(try users.deleteFederatedIdentities(userID: "user-1", connectionID: "google") == 1)
        #expect(try users.deleteFederatedIdentities(userID: "user-1", connectionID: "google") == 0)
        #expect(try users.federatedIdentities(userID: "user-1").map(\.connectionID) == ["apple"])
        #expect(try users.federatedIdentities(userID: "user-2").count == 2)

        #expect(try users.deleteUser(id: "user-1"))
        #expect(try users.deleteUser(id: "user-1") == false)
        #expect(try users.user(id: "user-1") == nil)
        #expect(try users.user(email: "ada@example.com") == nil)
        #expect(try users.federatedIdentity(connectionID: "apple", issuer: "https://apple.example", subject: "apple-user-1") == nil)
        #expect(try storage.sessions.session(idHash: hash("s-user-1"), now: t0) == nil)
        #expect(try storage.consents.consents(userID: "user-1").isEmpty)
        #expect(try storage.refreshTokens.grant(id: "g-user-1") == nil)
        #expect(try storage.refreshTokens.refreshToken(hash: hash("r-user-1"), grantID: "g-user-1") == nil)
        #expect(try storage.codes.consumeCode(codeHash: hash("c-user-1"), now: t0) == .notFound)
        // The other user keeps everything.
        #expect(try users.user(id: "user-2") != nil)
        #expect(try users.federatedIdentities(userID: "user-2").count == 2)
        #expect(try storage.sessions.session(idHash: hash("s-user-2"), now: t0) != nil)
        #expect(try storage.consents.consents(userID: "user-2").count == 1)
        #expect(try storage.refreshTokens.refreshToken(hash: hash("r-user-2"), grantID: "g-user-2") != nil)
        // The email is free again.
        try users.insertUser(Fixture.user("user-3", email: "ada@example.com"))
    }
}
