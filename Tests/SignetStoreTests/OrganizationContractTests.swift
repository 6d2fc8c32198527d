import Dispatch
import Foundation
import SignetStore
import SignetTesting
import Synchronization
import Testing

/// Organizations: unique slugs, idempotent membership (also under racing additions), roles,
/// paging, cascades, and invitations used once (also when many threads race).
@Suite("Contract: organizations", .endToEndLimit)
struct OrganizationContractTests {
    static func org(_ id: String, slug: String, at time: Date = t0) -> OrganizationRecord {
        OrganizationRecord(id: id, slug: slug, name: "Org \(slug)", logoURL: nil, createdAt: time, updatedAt: time)
    }

    static func storage(_ backend: Backend) throws -> any SignetStorage {
        let storage = try backend.make()
        try storage.users.insertUser(Fixture.user("user-1", email: "ada@example.com"))
        try storage.users.insertUser(Fixture.user("user-2", email: "grace@example.com"))
        try storage.organizations.insertOrganization(org("org_a", slug: "acme"))
        return storage
    }

    static func invitation(_ id: String, token: String, email: String = "ada@example.com", role: String = "admin",
                           expiresIn seconds: Double = 604_800) -> OrganizationInvitationRecord {
        OrganizationInvitationRecord(id: id, organizationID: "org_a", email: email, role: role, tokenHash: hash(token),
                                     createdAt: t0, expiresAt: t0.addingTimeInterval(seconds), invitedBy: "cli")
    }

    @Test(arguments: Backend.allCases)
    func organizationsAreFoundUpdatedPagedAndUnique(_ backend: Backend) throws {
        let store = try Self.storage(backend).organizations
        #expect(try store.organization(id: "org_a") == Self.org("org_a", slug: "acme"))
        #expect(try store.organization(slug: "acme")?.id == "org_a")
        #expect(try store.organization(slug: "nope") == nil)
        #expect(throws: StoreError.duplicate) { try store.insertOrganization(Self.org("org_b", slug: "acme")) }
        #expect(throws: StoreError.duplicate) { try store.insertOrganization(Self.org("org_a", slug: "other")) }
        try store.insertOrganization(Self.org("org_b", slug: "beta"))
        try store.insertOrganization(Self.org("org_c", slug: "gamma"))
        #expect(try store.organizations(limit: 2, after: nil).map(\.id) == ["org_a", "org_b"])
        #expect(try store.organizations(limit: 2, after: "org_b").map(\.id) == ["org_c"])

        var renamed = Self.org("org_b", slug: "beta-2")
        renamed.name = "Beta Two"
        renamed.logoURL = "https://example.com/logo.png"
        renamed.updatedAt = t0.addingTimeInterval(60)
        try store.updateOrganization(renamed)
        #expect(try store.organization(id: "org_b") == renamed)
        #expect(try store.organization(slug: "beta") == nil)
        #expect(throws: StoreError.duplicate) { try store.updateOrganization(Self.org("org_b", slug: "acme")) }
        #expect(throws: StoreError.notFound) { try store.updateOrganization(Self.org("org_x", slug: "x-x")) }
        #expect(try store.deleteOrganization(id: "org_c"))
        #expect(try !store.deleteOrganization(id: "org_c"))
        #expect(try store.organization(id: "org_c") == nil)
    }

    @Test(arguments: Backend.allCases)
    func membershipIsIdempotentAndRolesAreKept(_ backend: Backend) throws {
        let storage = try Self.storage(backend)
        let store = storage.organizations
        #expect(try store.addMember(organizationID: "org_a", userID: "user-1", roles: ["owner", "admin", "owner"], at: t0))
        // A second addition changes nothing, not even the roles.
        #expect(try !store.addMember(organizationID: "org_a", userID: "user-1", roles: ["member"], at: t0.addingTimeInterval(5)))
        #expect(try store.membership(organizationID: "org_a", userID: "user-1")
                == OrganizationMemberRecord(organizationID: "org_a", userID: "user-1", roles: ["admin", "owner"], createdAt: t0))
        #expect(throws: StoreError.notFound) { try store.addMember(organizationID: "org_x", userID: "user-1", roles: [], at: t0) }
        #expect(throws: StoreError.notFound) { try store.addMember(organizationID: "org_a", userID: "user-x", roles: [], at: t0) }

        #expect(try store.setRoles(organizationID: "org_a", userID: "user-1", roles: ["member", "billing"]))
        #expect(try store.membership(organizationID: "org_a", userID: "user-1")?.roles == ["billing", "member"])
        #expect(try !store.setRoles(organizationID: "org_a", userID: "user-2", roles: ["member"]))

        try store.insertOrganization(Self.org("org_b", slug: "beta"))
        try store.addMember(organizationID: "org_b", userID: "user-1", roles: ["member"], at: t0)
        try store.addMember(organizationID: "org_a", userID: "user-2", roles: ["member"], at: t0)
        #expect(try store.memberships(userID: "user-1").map(\.organization.slug) == ["acme", "beta"])
        #expect(try store.memberships(userID: "user-1").first?.member.roles == ["billing", "member"])
        #expect(try store.members(organizationID: "org_a", limit: 1, after: nil).map(\.userID) == ["user-1"])
        #expect(try store.members(organizationID: "org_a", limit: 1, after: "user-1").map(\.userID) == ["user-2"])
        #expect(try store.members(organizationID: "org_a", limit: 5, after: "user-2").isEmpty)

        #expect(try store.removeMember(organizationID: "org_a", userID: "user-2"))
        #expect(try !store.removeMember(organizationID: "org_a", userID: "user-2"))
        // A deleted user's memberships go with it; a deleted organization's members go with it.
        #expect(try storage.users.deleteUser(id: "user-1"))
        #expect(try store.memberships(userID: "user-1").isEmpty)
        try store.addMember(organizationID: "org_b", userID: "user-2", roles: ["member"], at: t0)
        #expect(try store.deleteOrganization(id: "org_b"))
        #expect(try store.memberships(userID: "user-2").isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func racingAdditionsLeaveOneMembership(_ backend: Backend) throws {
        let store = try Self.storage(backend).organizations
        let added = Mutex(0)
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            do {
                if try store.addMember(organizationID: "org_a", userID: "user-1", roles: ["member"], at: t0) {
                    added.withLock { $0 += 1 }
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        #expect(added.withLock { $0 } == 1)
        #expect(try store.members(organizationID: "org_a", limit: 10, after: nil).count == 1)
    }

    @Test(arguments: Backend.allCases)
    func customRolesAreTakenFromMembersWhenRemoved(_ backend: Backend) throws {
        let store = try Self.storage(backend).organizations
        try store.insertRole(organizationID: "org_a", name: "billing", at: t0)
        try store.insertRole(organizationID: "org_a", name: "auditor", at: t0)
        #expect(throws: StoreError.duplicate) { try store.insertRole(organizationID: "org_a", name: "billing", at: t0) }
        #expect(throws: StoreError.notFound) { try store.insertRole(organizationID: "org_x", name: "billing", at: t0) }
        #expect(try store.roles(organizationID: "org_a") == ["auditor", "billing"])
        try store.addMember(organizationID: "org_a", userID: "user-1", roles: ["member", "billing"], at: t0)
        try store.addMember(organizationID: "org_a", userID: "user-2", roles: ["auditor"], at: t0)
        #expect(try store.deleteRole(organizationID: "org_a", name: "billing"))
        #expect(try !store.deleteRole(organizationID: "org_a", name: "billing"))
        #expect(try store.roles(organizationID: "org_a") == ["auditor"])
        #expect(try store.membership(organizationID: "org_a", userID: "user-1")?.roles == ["member"])
        #expect(try store.membership(organizationID: "org_a", userID: "user-2")?.roles == ["auditor"])
    }

    @Test(arguments: Backend.allCases)
    func invitationsAreAcceptedOnceByTheInvitedEmail(_ backend: Backend) throws {
        let storage = try Self.storage(backend)
        let store = storage.organizations
        let mail = OutboxMessageRecord(id: "mail-inv", sealedMessage: [1, 2], createdAt: t0)
        try store.insertInvitation(Self.invitation("inv_1", token: "tok-1"), mail: mail)
        #expect(try storage.mailOutbox.claimDue(now: t0, leaseUntil: t0.addingTimeInterval(60), limit: 5).map(\.id) == ["mail-inv"])
        #expect(throws: StoreError.notFound) {
            try store.insertInvitation(OrganizationInvitationRecord(
                id: "inv_x", organizationID: "org_x", email: "a@example.com", role: "member", tokenHash: hash("tok-x"),
                createdAt: t0, expiresAt: t0.addingTimeInterval(60)), mail: nil)
        }
        #expect(try store.invitation(tokenHash: hash("tok-1"))?.id == "inv_1")
        let now = t0.addingTimeInterval(10)
        // Another email: refused, nothing written.
        #expect(try store.acceptInvitation(tokenHash: hash("tok-1"), userID: "user-2", email: "grace@example.com", now: now)
                == .otherEmail(invited: "ada@example.com"))
        #expect(try store.membership(organizationID: "org_a", userID: "user-2") == nil)
        #expect(try store.invitation(id: "inv_1")?.acceptedAt == nil)
        #expect(try store.acceptInvitation(tokenHash: hash("tok-none"), userID: "user-1", email: "ada@example.com", now: now) == .unknown)

        // An existing member keeps its roles and gains the invited one.
        try store.addMember(organizationID: "org_a", userID: "user-1", roles: ["member"], at: t0)
        guard case .accepted(let used, let member) = try store.acceptInvitation(
            tokenHash: hash("tok-1"), userID: "user-1", email: "Ada@Example.com", now: now) else {
            Issue.record("not accepted")
            return
        }
        #expect(used.acceptedAt == now && used.acceptedBy == "user-1")
        #expect(member.roles == ["admin", "member"])
        #expect(try store.membership(organizationID: "org_a", userID: "user-1")?.roles == ["admin", "member"])
        #expect(try store.acceptInvitation(tokenHash: hash("tok-1"), userID: "user-1", email: "ada@example.com", now: now) == .alreadyAccepted)
        #expect(try !store.revokeInvitation(id: "inv_1", now: now))
        #expect(try !store.renewInvitation(id: "inv_1", tokenHash: hash("tok-1b"), expiresAt: now.addingTimeInterval(60), now: now, mail: nil))

        // Expired, revoked: refused, nothing written.
        try store.insertInvitation(Self.invitation("inv_2", token: "tok-2", email: "grace@example.com", role: "member", expiresIn: 5), mail: nil)
        #expect(try store.acceptInvitation(tokenHash: hash("tok-2"), userID: "user-2", email: "grace@example.com", now: now) == .expired)
        #expect(try !store.revokeInvitation(id: "inv_2", now: now))
        try store.insertInvitation(Self.invitation("inv_3", token: "tok-3", email: "grace@example.com", role: "member"), mail: nil)
        #expect(try store.revokeInvitation(id: "inv_3", now: now))
        #expect(try store.acceptInvitation(tokenHash: hash("tok-3"), userID: "user-2", email: "grace@example.com", now: now) == .revoked)
        #expect(try store.membership(organizationID: "org_a", userID: "user-2") == nil)
        #expect(try store.invitations(organizationID: "org_a").count == 3)
    }

    @Test(arguments: Backend.allCases)
    func aSignUpThroughAnInvitationStoresTheUserOnlyWhenAccepted(_ backend: Backend) throws {
        let storage = try Self.storage(backend)
        let store = storage.organizations
        let now = t0.addingTimeInterval(10)
        try store.insertInvitation(Self.invitation("inv_1", token: "tok-new", email: "new@example.com", role: "admin"), mail: nil)
        try store.insertInvitation(Self.invitation("inv_2", token: "tok-old", email: "late@example.com", expiresIn: 5), mail: nil)
        try store.insertInvitation(Self.invitation("inv_3", token: "tok-taken", email: "ada@example.com"), mail: nil)
        // Expired: nothing stored.
        #expect(try store.acceptInvitation(tokenHash: hash("tok-old"), creating: Fixture.user("user-late", email: "late@example.com"), now: now)
                == .expired)
        #expect(try storage.users.user(id: "user-late") == nil)
        // An address that has an account: `.duplicate`, nothing stored, the invitation still pending.
        #expect(throws: StoreError.duplicate) {
            try store.acceptInvitation(tokenHash: hash("tok-taken"), creating: Fixture.user("user-3", email: "ada@example.com"), now: now)
        }
        #expect(try storage.users.user(id: "user-3") == nil)
        #expect(try store.invitation(id: "inv_3")?.acceptedAt == nil)
        // Accepted: the user, the use and the membership together.
        guard case .accepted(let used, let member) = try store.acceptInvitation(
            tokenHash: hash("tok-new"), creating: Fixture.user("user-new", email: "new@example.com"), now: now) else {
            Issue.record("not accepted")
            return
        }
        #expect(used.acceptedBy == "user-new" && member.roles == ["admin"])
        #expect(try storage.users.user(id: "user-new")?.email == "new@example.com")
        #expect(try store.membership(organizationID: "org_a", userID: "user-new")?.roles == ["admin"])
        #expect(try store.acceptInvitation(tokenHash: hash("tok-new"), creating: Fixture.user("user-4", email: "new@example.com"), now: now)
                == .alreadyAccepted)
        #expect(try storage.users.user(id: "user-4") == nil)
    }

    @Test(arguments: Backend.allCases)
    func aResentInvitationKillsTheOldLink(_ backend: Backend) throws {
        let storage = try Self.storage(backend)
        let store = storage.organizations
        try store.insertInvitation(Self.invitation("inv_1", token: "tok-old"), mail: nil)
        let now = t0.addingTimeInterval(100)
        let mail = OutboxMessageRecord(id: "mail-resend", sealedMessage: [3], createdAt: now)
        #expect(try store.renewInvitation(id: "inv_1", tokenHash: hash("tok-new"), expiresAt: now.addingTimeInterval(604_800), now: now, mail: mail))
        #expect(try storage.mailOutbox.claimDue(now: now, leaseUntil: now.addingTimeInterval(60), limit: 5).map(\.id) == ["mail-resend"])
        #expect(try store.invitation(tokenHash: hash("tok-old")) == nil)
        #expect(try store.acceptInvitation(tokenHash: hash("tok-old"), userID: "user-1", email: "ada@example.com", now: now) == .unknown)
        #expect(try store.invitation(id: "inv_1")?.expiresAt == now.addingTimeInterval(604_800))
        guard case .accepted = try store.acceptInvitation(tokenHash: hash("tok-new"), userID: "user-1", email: "ada@example.com", now: now) else {
            Issue.record("the new link was refused")
            return
        }
        #expect(try !store.renewInvitation(id: "inv_x", tokenHash: hash("tok-x"), expiresAt: now, now: now, mail: nil))
    }

    @Test(arguments: Backend.allCases)
    func racingAcceptancesHaveOneWinner(_ backend: Backend) throws {
        let store = try Self.storage(backend).organizations
        try store.insertInvitation(Self.invitation("inv_1", token: "tok-race"), mail: nil)
        let wins = Mutex(0)
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            do {
                switch try store.acceptInvitation(tokenHash: hash("tok-race"), userID: "user-1", email: "ada@example.com", now: t0) {
                case .accepted: wins.withLock { $0 += 1 }
                case .alreadyAccepted: break
                case let other: errors.withLock { $0.append("\(other)") }
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        #expect(wins.withLock { $0 } == 1)
        #expect(try store.membership(organizationID: "org_a", userID: "user-1")?.roles == ["admin"])
    }

    @Test(arguments: Backend.allCases)
    func purgeDeletesExpiredInvitations(_ backend: Backend) throws {
        let storage = try Self.storage(backend)
        try storage.organizations.insertInvitation(Self.invitation("inv_1", token: "tok-1", expiresIn: 60), mail: nil)
        try storage.organizations.insertInvitation(Self.invitation("inv_2", token: "tok-2", expiresIn: 86_400), mail: nil)
        #expect(try storage.purge(before: t0.addingTimeInterval(120)) == 1)
        #expect(try storage.organizations.invitations(organizationID: "org_a").map(\.id) == ["inv_2"])
    }
}
