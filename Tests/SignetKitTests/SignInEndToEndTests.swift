import Foundation
import SignetClientCore
import SignetKit
import SignetServer
import SignetTesting
import Testing

/// SignetKit against a real Signet on loopback, with a cookie-keeping form browser as the user.
@Suite("SignetKit end to end", .endToEndLimit) struct SignInEndToEndTests {
    @Test func signInRefreshAndSignOut() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)

        let tokens = try #require(await session.currentTokens)
        #expect(tokens.subject == fixture.userID)
        #expect(tokens.claims["email"] == KitFixture.email)
        #expect(tokens.claims["name"] == "Alice")
        #expect(tokens.refreshToken != nil)
        #expect(client.pendingSignIn() == nil, "the pending sign-in is cleared after the exchange")
        #expect(fixture.tokenRequests == 1)

        // The access token works at the server.
        let info = try await HTTPTestClient().get(fixture.server.url(Routes.userinfo), headers: ["Authorization": "Bearer \(tokens.accessToken)"])
        #expect(info.status == 200)

        // A relaunch finds the session in storage.
        let restored = try #require(client.restoreSession())
        #expect(await restored.subject == fixture.userID)

        // Refresh rotates the refresh token and saves it.
        let renewed = try await session.refresh()
        #expect(renewed.accessToken != tokens.accessToken)
        #expect(renewed.refreshToken != tokens.refreshToken)
        #expect(client.restoreSession() != nil)
        #expect(await client.restoreSession()?.currentTokens?.refreshToken == renewed.refreshToken)

        // Sign-out revokes the refresh token at the server and clears storage.
        let signedOut = try #require(await session.signOut())
        #expect(signedOut.revocation == .revoked)
        #expect(signedOut.storageError == nil)
        let idToken = signedOut.idToken
        #expect(idToken != nil)
        #expect(await session.isSignedIn == false)
        #expect(client.restoreSession() == nil)
        let reuse = try await HTTPTestClient().post(fixture.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", try #require(renewed.refreshToken)), ("client_id", KitFixture.clientID)])
        #expect(reuse.status == 400)
        #expect(try reuse.json()["error"]?.stringValue == "invalid_grant")
        let end = try #require(client.endSessionURL(idTokenHint: idToken))
        #expect(end.absoluteString.hasPrefix(fixture.server.issuer + Routes.endSession + "?client_id=native&id_token_hint="))
        await #expect(throws: SignInError.notSignedIn) { try await session.freshAccessToken() }
    }

    @Test func twentyConcurrentCallersCauseOneRefresh() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let session = try await fixture.signIn(try await fixture.client())
        let before = try #require(await session.currentTokens)
        #expect(fixture.tokenRequests == 1)
        // Fresh token: no request at all.
        #expect(try await session.freshAccessToken() == before.accessToken)
        #expect(fixture.tokenRequests == 1)

        fixture.server.clock.advance(by: before.accessTokenExpiresAt.timeIntervalSince(fixture.server.clock.now) + 1)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await session.freshAccessToken() } }
            var all: [String] = []
            for try await token in group { all.append(token) }
            return all
        }
        #expect(tokens.count == 20)
        #expect(Set(tokens).count == 1, "every caller gets the one refreshed token")
        #expect(tokens.first != before.accessToken)
        #expect(fixture.tokenRequests == 2, "exactly one refresh request for 20 callers")
    }

    @Test func invalidGrantEndsTheSessionButANetworkErrorDoesNot() async throws {
        let fixture = try KitFixture()
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)
        let tokens = try #require(await session.currentTokens)

        // Revoked behind the kit's back: the next refresh gets invalid_grant and the session ends.
        let revoked = try await HTTPTestClient().post(fixture.server.url(Routes.revoke), form: [
            ("token", try #require(tokens.refreshToken)), ("client_id", KitFixture.clientID)])
        #expect(revoked.status == 200)
        await #expect(throws: SignInError.notSignedIn) { try await session.refresh() }
        #expect(await session.isSignedIn == false)
        #expect(client.restoreSession() == nil, "storage is cleared")

        // A second session, then the server goes away: a network error keeps the session.
        let second = try await fixture.signIn(client)
        fixture.stop()
        do {
            try await second.refresh()
            Issue.record("the refresh should fail with the server gone")
        } catch {
            guard error.code == .network else { Issue.record("expected a network error, got \(error)"); return }
        }
        #expect(await second.isSignedIn)
        #expect(client.restoreSession() != nil)
    }

    @Test func pendingSignInSurvivesARelaunchAndExpires() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let folder = try TemporaryDirectory(prefix: "kit-relaunch")
        defer { folder.remove() }
        let storage = FileTokenStorage(directory: URL(fileURLWithPath: folder.appending("tokens")))
        let first = try await fixture.client(storage: storage)
        let request = try first.beginSignIn(redirectURI: "http://127.0.0.1:50123/callback")
        let redirect = try await fixture.authorize(request)

        // "Relaunch": a new client on the same storage completes the sign-in.
        let second = try await fixture.client(storage: FileTokenStorage(directory: URL(fileURLWithPath: folder.appending("tokens"))))
        #expect(second.pendingSignIn() == request.pending)
        let session = try await second.completeSignIn(callback: try #require(redirect.url))
        #expect(await session.subject == fixture.userID)
        // Files are private to the user.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appending("tokens"))
        #expect(!names.isEmpty)
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appending("tokens/\(name)"))
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }

        // Expiry: a pending sign-in older than its lifetime is refused and removed.
        let late = try second.beginSignIn(redirectURI: "http://127.0.0.1:50123/callback")
        let lateRedirect = try await fixture.authorize(late)
        fixture.server.clock.advance(by: 601)
        await #expect(throws: SignInError.pendingSignInExpired) { try await second.completeSignIn(callback: try #require(lateRedirect.url)) }
        #expect(second.pendingSignIn() == nil)
    }

    @Test func discoveryRefusesADocumentForAnotherIssuer() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        // Same server, reached under another name: its document names the real issuer.
        let other = fixture.server.issuer.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        await #expect(throws: SignInError.issuerMismatch(expected: other, found: fixture.server.issuer)) {
            _ = try await SignInClient.discover(
                ClientConfiguration(issuer: other, clientID: KitFixture.clientID, redirectURI: KitFixture.registeredRedirect),
                storage: InMemoryTokenStorage())
        }
        let discovered = try await ProviderConfiguration.discover(issuer: fixture.server.issuer, http: OutboundHTTP())
        #expect(discovered.issuerParameterSupported)
    }
}
