import Foundation
import SignetClientCore
import SignetCore
import SignetKit
import SignetServer
import SignetStore
import SignetTesting
import SignetWire
import Testing

/// `AuthState.deleteAccount()` against the real server: `DELETE /account` with the access token,
/// then the stored tokens are gone.
@Suite(.endToEndLimit) struct DeleteAccountTests {
    /// A client of the fixture's server registered for `account:delete` (or not).
    func client(_ fixture: KitFixture, id: String, scopes: [String], storage: any TokenStorage) async throws -> SignInClient {
        let now = fixture.server.clock.now
        try fixture.server.environment.storage.clients.upsertClient(ClientRecord(
            id: id, name: "Deleter", isPublic: true, firstParty: true, redirectURIs: [KitFixture.registeredRedirect],
            allowedScopes: ["openid", "offline_access", Scope.accountDelete], grantTypes: ["authorization_code", "refresh_token"],
            tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        var configuration = ClientConfiguration(issuer: fixture.server.issuer, clientID: id, redirectURI: KitFixture.registeredRedirect)
        configuration.scopes = scopes
        let provider = try await ProviderConfiguration.discover(issuer: fixture.server.issuer, http: OutboundHTTP())
        return try SignInClient(configuration: configuration, provider: provider, storage: storage, clock: fixture.clock)
    }

    @Test func deleteAccountDeletesTheUserAndClearsTheStoredTokens() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await client(fixture, id: "deleter", scopes: ["openid", "offline_access", Scope.accountDelete], storage: storage)
        let session = try await fixture.signIn(client)
        let refreshToken = try #require(await session.currentTokens?.refreshToken)
        try await session.deleteAccount()
        #expect(await session.isSignedIn == false)
        #expect(client.restoreSession() == nil)
        #expect(try fixture.server.environment.storage.users.user(id: fixture.userID) == nil)
        let reuse = try await HTTPTestClient().post(fixture.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "deleter")])
        #expect(try reuse.json()["error"]?.stringValue == "invalid_grant")
        // Signed out now: a second call says so.
        await #expect(throws: SignInError.notSignedIn) { try await session.deleteAccount() }
    }

    @Test func withoutTheScopeTheServerRefusesAndTheSessionStays() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let client = try await client(fixture, id: "deleter", scopes: ["openid", "offline_access"], storage: InMemoryTokenStorage())
        let session = try await fixture.signIn(client)
        do {
            try await session.deleteAccount()
            Issue.record("the deletion succeeded without account:delete")
        } catch {
            #expect(error.code == .accountDeletionRefused)
            #expect(error.oauthError == "insufficient_scope")
        }
        #expect(await session.isSignedIn)
        #expect(client.restoreSession() != nil)
        #expect(try fixture.server.environment.storage.users.user(id: fixture.userID) != nil)
    }
}
