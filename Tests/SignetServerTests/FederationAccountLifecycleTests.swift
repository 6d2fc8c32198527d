import Foundation
import SignetCore
import SignetFederation
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Unlinking and deleting accounts with `signet users` (the real binary, against the running
/// server's data folder), then signing in again through the provider.
@Suite(.endToEndLimit) struct FederationAccountLifecycleTests {
    func users(_ fed: Federated, _ arguments: [String]) async throws -> SubprocessResult {
        try await SignetBinary.run(["users"] + arguments + ["--data", fed.server.dataDirectory])
    }

    @Test func deletingAnAppleAccountThenSigningInAgainStartsANewAccount() async throws {
        let relay = "x7kq2@privaterelay.appleid.com"
        let fed = try Federated(.apple, user: MockUser(email: relay, name: "Ada Apple"))
        defer { fed.stop() }
        let first = try await FederationEndToEndTests.completes(fed, fed.browser())
        let show = try await users(fed, ["show", first])
        #expect(show.succeeded, "\(show)")
        #expect(show.stdout.contains("linked:         apple (\(fed.mock.issuer))"))

        let refused = try await users(fed, ["delete", first])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--yes"))
        #expect(try fed.server.environment.storage.users.user(id: first) != nil)

        let deleted = try await users(fed, ["delete", first, "--yes"])
        #expect(deleted.succeeded, "\(deleted)")
        // The same AccountDeletion as the page: this configuration (--data only) has no Apple
        // connection, so Apple's token cannot be revoked from here; it says so and records it.
        #expect(deleted.stdout.contains("could not revoke the apple token"))
        #expect(fed.mock.revocations.isEmpty)
        let audit = try fed.server.environment.storage.audit.recentAudit(limit: 100)
        #expect(audit.contains { $0.event == "account_deleted" && $0.subjectID == first && $0.detail.contains("\"cli\"") })
        #expect(audit.contains { $0.event == "upstream_revoke_failed" && $0.detail.contains("connection_unavailable") })
        #expect(try fed.server.environment.storage.users.user(id: first) == nil)
        #expect(try fed.counts() == (users: 1, links: 0))
        #expect(try await users(fed, ["delete", first, "--yes"]).status == 64)

        // Apple signs the same person in again (same sub): a new account with a new subject.
        let second = try await FederationEndToEndTests.completes(fed, fed.browser())
        #expect(second != first)
        let user = try #require(try fed.server.environment.storage.users.user(id: second))
        #expect(user.email == relay)
        #expect(try fed.counts() == (users: 2, links: 1))
    }

    @Test func unlinkingAProviderMakesTheNextSignInFollowTheLinkingRulesAgain() async throws {
        let fed = try Federated(.google, user: MockUser(email: Interactive.email)) { $0.allowLinking = true }
        defer { fed.stop() }
        // Confirmed, so the link keeps the password (an unconfirmed account would be claimed by the provider's proof).
        let alice = fed.interactive.user
        try fed.server.environment.storage.users.updateProfile(userID: alice.id, name: alice.name, givenName: nil, familyName: nil,
                                                               emailVerified: true, now: fed.server.clock.now)
        let linked = try await FederationEndToEndTests.completes(fed, fed.browser())
        #expect(linked == fed.interactive.user.id)

        let missing = try await users(fed, ["unlink", Interactive.email])
        #expect(missing.status == 64)
        #expect(try await users(fed, ["unlink", Interactive.email, "--connection", "github"]).status == 64)
        let unlinked = try await users(fed, ["unlink", Interactive.email, "--connection", fed.connectionID])
        #expect(unlinked.succeeded, "\(unlinked)")
        #expect(try fed.counts() == (users: 1, links: 0))
        #expect(try fed.server.environment.storage.users.user(id: linked)?.passwordHash != nil)

        // Verified email and linking allowed: linked again to the same account.
        let again = try await FederationEndToEndTests.completes(fed, fed.browser())
        #expect(again == linked)
        #expect(try fed.counts() == (users: 1, links: 1))
    }
}
