import Foundation
import SignetStore
import Testing

@Suite("Contract: users and federated identities")
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
}
