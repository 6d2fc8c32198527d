import Foundation
@testable import SignetCore
import SignetStore
import SignetWire
import Testing

/// The pre-account-takeover rule (`UnconfirmedAccountClaim`): a provider that verified the address
/// of an account nobody confirmed links to it only after what was made on it before is gone.
@Suite struct UnconfirmedAccountClaimTests {
    func passkey(_ f: CoreFixture, userID: String) throws {
        try f.storage.passkeys.insertPasskey(PasskeyRecord(
            id: [1, 2, 3], userID: userID, publicKey: [4, 5, 6], signCount: 0, backupEligible: false, backupState: false, transports: [],
            name: "Attacker's key", createdAt: f.clock.now))
    }

    @Test func aProviderLinkingAnUnconfirmedAccountEndsWhatWasMadeOnItBefore() throws {
        let f = try CoreFixture()
        let user = try f.makeUser("victim@example.com")
        #expect(!user.emailVerified)
        let session = try f.signedIn(user)
        try passkey(f, userID: user.id)
        let resolver = FederatedAccountResolver(server: f.server)
        let outcome = try resolver.resolve(UpstreamIdentity(issuer: "https://idp.example", subject: "v-1", email: "victim@example.com",
                                                            emailVerified: true),
                                           connectionID: "google", allowLinking: true)
        guard case .linked(let linked) = outcome else { Issue.record("not linked: \(outcome)"); return }
        #expect(linked.emailVerified && linked.passwordHash == nil)
        #expect(try f.storage.passkeys.passkeys(userID: user.id).isEmpty)
        #expect(try f.flow.sessions.active(token: session.token) == nil)
        #expect(try f.storage.users.federatedIdentities(userID: user.id).map(\.connectionID) == ["google"])
        #expect(try f.storage.audit.recentAudit(limit: 50).contains { $0.event == "unconfirmed_account_claimed" && $0.method == "fed:google" })
    }

    @Test func aConfirmedAccountIsLinkedAsItIs() throws {
        let f = try CoreFixture()
        let user = try f.makeUser("owner@example.com")
        try f.storage.users.updateProfile(userID: user.id, name: user.name, givenName: nil, familyName: nil, emailVerified: true, now: f.clock.now)
        let session = try f.signedIn(try #require(try f.storage.users.user(id: user.id)))
        let outcome = try FederatedAccountResolver(server: f.server).resolve(
            UpstreamIdentity(issuer: "https://idp.example", subject: "o-1", email: "owner@example.com", emailVerified: true),
            connectionID: "google", allowLinking: true)
        guard case .linked(let linked) = outcome else { Issue.record("not linked: \(outcome)"); return }
        #expect(linked.passwordHash != nil)
        #expect(try f.flow.sessions.active(token: session.token) != nil)
    }

    @Test func peekingWritesNothing() throws {
        let f = try CoreFixture()
        let user = try f.makeUser("victim@example.com")
        let resolver = FederatedAccountResolver(server: f.server)
        let identity = UpstreamIdentity(issuer: "https://idp.example", subject: "v-1", email: "victim@example.com", emailVerified: true)
        #expect(try resolver.peek(identity, connectionID: "google", allowLinking: true) == .linked(user))
        #expect(try f.storage.users.federatedIdentities(userID: user.id).isEmpty)
        #expect(try f.storage.users.user(id: user.id)?.passwordHash != nil)
        let stranger = UpstreamIdentity(issuer: "https://idp.example", subject: "s-1", email: "new@example.com", emailVerified: true)
        guard case .created(let prospect) = try resolver.peek(stranger, connectionID: "google", allowLinking: true) else {
            Issue.record("no prospect"); return
        }
        #expect(prospect.id.isEmpty && prospect.email == "new@example.com")
        #expect(try f.storage.users.user(email: "new@example.com") == nil)
    }
}
