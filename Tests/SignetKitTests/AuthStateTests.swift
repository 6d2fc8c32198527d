import Foundation
import SignetClientCore
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetWire
@testable import SignetKit
import SignetServer
import SignetTesting
import Synchronization
import Testing

/// `AuthState` against a real Signet: renewed tokens are never lost, one state per stored
/// session, sign-out during a refresh revokes the newest token.
@Suite("AuthState end to end", .endToEndLimit) struct AuthStateTests {
    @Test func aFailedSaveKeepsTheRotatedTokensAndRetriesTheSave() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = FlakyStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)
        let before = try #require(await session.currentTokens)

        storage.failWrites(true)
        await #expect(throws: SignInError.storage("the disk is full")) { try await session.refresh() }
        let kept = try #require(await session.currentTokens, "the session survives a failed save")
        #expect(kept.refreshToken != before.refreshToken, "the rotated refresh token is kept in memory")
        #expect(kept.accessToken != before.accessToken)
        #expect(await session.hasUnsavedTokens)
        #expect(try storage.storedTokens(client)?.refreshToken == before.refreshToken, "storage still holds the old tokens")

        // Past the reuse grace, presenting the spent token would revoke the family (RFC 9700 §4.14.2).
        fixture.server.clock.advance(by: 31)
        storage.failWrites(false)
        // The next operation saves first, then refreshes with the kept token.
        #expect(try await session.freshAccessToken(margin: 0) == kept.accessToken)
        #expect(await session.hasUnsavedTokens == false)
        #expect(try storage.storedTokens(client)?.refreshToken == kept.refreshToken, "the retried save stored the rotated token")
        let renewed = try await session.refresh()
        #expect(renewed.refreshToken != kept.refreshToken)
        #expect(await session.isSignedIn)
    }

    @Test func aRefreshedIDTokenThatFailsItsCheckKeepsTheRotatedRefreshToken() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)
        let before = try #require(await session.currentTokens)

        // A new signing key: the kit fetched the key set at sign-in, and within its refetch
        // interval the new kid is unknown, so the refreshed ID token fails its check.
        _ = try fixture.server.environment.keyRing.rotate(.rs256, prepublishSeconds: 0)
        do {
            try await session.refresh()
            Issue.record("the refreshed ID token should have failed its check")
        } catch {
            guard error.code == .invalidIDToken, let why = error.detail, why.contains("kid") else { Issue.record("got \(error)"); return }
        }
        let kept = try #require(await session.currentTokens)
        #expect(kept.refreshToken != before.refreshToken, "the rotated refresh token is kept")
        #expect(kept.idToken == before.idToken, "the unverified ID token is not taken")
        #expect(try storage.storedTokens(client)?.refreshToken == kept.refreshToken, "and saved")

        // After the refetch interval (and past the reuse grace) the kept token refreshes.
        fixture.server.clock.advance(by: 61)
        let renewed = try await session.refresh()
        #expect(renewed.idToken != before.idToken)
        #expect(renewed.refreshToken != kept.refreshToken)
    }

    @Test func everyHolderOfAStoredSessionSharesOneStateAndOneRefresh() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)
        let restored = try #require(client.restoreSession())
        #expect(restored === session)
        let otherClient = try await fixture.client(storage: storage)
        let other = try #require(otherClient.restoreSession())
        #expect(other === session, "a second client on the same storage gets the same state")
        #expect(fixture.tokenRequests == 1)

        let before = try #require(await session.currentTokens)
        fixture.server.clock.advance(by: before.accessTokenExpiresAt.timeIntervalSince(fixture.server.clock.now) + 1)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 { group.addTask { try await (index % 2 == 0 ? restored : other).freshAccessToken() } }
            var all: [String] = []
            for try await token in group { all.append(token) }
            return all
        }
        #expect(Set(tokens).count == 1)
        #expect(fixture.tokenRequests == 2, "one refresh for every holder")

        // Two file storages on one folder are one stored session too.
        let folder = try TemporaryDirectory(prefix: "kit-shared")
        defer { folder.remove() }
        let first = try await fixture.client(storage: FileTokenStorage(directory: URL(fileURLWithPath: folder.appending("t"))))
        let fileSession = try await fixture.signIn(first)
        let second = try await fixture.client(storage: FileTokenStorage(directory: URL(fileURLWithPath: folder.appending("t"))))
        #expect(second.restoreSession() === fileSession)
    }

    @Test func aRefreshTokenRotatedByAnotherProcessIsReadFromStorage() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        // Two holders with their own state over the same bytes: two processes sharing a keyring.
        let bytes = InMemoryTokenStorage()
        let clientA = try await fixture.client(storage: SeparateHolder(bytes))
        let clientB = try await fixture.client(storage: SeparateHolder(bytes))
        let a = try await fixture.signIn(clientA)
        let b = try #require(clientB.restoreSession())
        #expect(a !== b)

        let rotatedByA = try await a.refresh()
        fixture.server.clock.advance(by: 31)   // past the reuse grace: a spent token would revoke the family
        let rotatedByB = try await b.refresh()
        #expect(rotatedByB.refreshToken != rotatedByA.refreshToken)
        #expect(await b.isSignedIn)
        // A sees B's rotation too.
        let again = try await a.refresh()
        #expect(again.refreshToken != rotatedByB.refreshToken)

        // B signs out: A learns it from storage at its next refresh.
        let changes = a.changes()
        _ = await b.signOut()
        await #expect(throws: SignInError.notSignedIn) { try await a.refresh() }
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .ended(.removedFromStorage))
    }

    @Test func signOutDuringARefreshRevokesTheNewestRefreshToken() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)
        let before = try #require(await session.currentTokens)

        fixture.tokenGate.close()
        var arrivals = fixture.tokenGate.arrivals.makeAsyncIterator()
        let refreshing = Task { try await session.refresh() }
        _ = await arrivals.next()   // the refresh is at the token endpoint
        let signingOut = Task { await session.signOut() }
        let waiting = try await waitUntil { await session.isSigningOut }
        #expect(waiting, "signOut started while the refresh is in flight")
        fixture.tokenGate.open()

        let result = try #require(await signingOut.value)
        #expect(result.revocation == .revoked)
        let renewed = try await refreshing.value   // the refresh itself completed
        #expect(await session.isSignedIn == false)
        #expect(client.restoreSession() == nil)
        #expect(try storage.storedTokens(client) == nil, "no refresh left a token behind")
        // Neither the old nor the rotated refresh token works.
        fixture.server.clock.advance(by: 31)
        for token in [before.refreshToken, renewed.refreshToken] {
            let reuse = try await HTTPTestClient().post(fixture.server.url(Routes.token), form: [
                ("grant_type", "refresh_token"), ("refresh_token", try #require(token)), ("client_id", KitFixture.clientID)])
            #expect(reuse.status == 400)
            #expect(try reuse.json()["error"]?.stringValue == "invalid_grant")
        }
    }

    @Test func aNewSignInDuringARefreshOfTheOldSessionStays() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)

        fixture.tokenGate.close()
        var arrivals = fixture.tokenGate.arrivals.makeAsyncIterator()
        let refreshing = Task { try await session.refresh() }
        _ = await arrivals.next()   // the old session's refresh is at the token endpoint
        let again = try await fixture.signIn(client)   // its code exchange passes the gate
        #expect(again === session)
        let fresh = try #require(await session.currentTokens)
        fixture.tokenGate.open()
        _ = try await refreshing.value
        #expect(await session.currentTokens == fresh, "the new sign-in is not overwritten by the old session's refresh")
        #expect(try storage.storedTokens(client)?.refreshToken == fresh.refreshToken)
    }

    @Test func observersSeeRotationsProblemsAndTheEndWithItsReason() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = FlakyStorage()
        let client = try await fixture.client(storage: storage)
        let session = try await fixture.signIn(client)
        var changes = session.changes().makeAsyncIterator()

        let renewed = try await session.refresh()
        #expect(await changes.next() == .tokensUpdated(renewed))

        storage.failWrites(true)
        await #expect(throws: SignInError.storage("the disk is full")) { try await session.refresh() }
        #expect(await session.hasUnsavedTokens)
        let kept = try #require(await session.currentTokens)
        #expect(await changes.next() == .tokensUpdated(kept))
        #expect(await changes.next() == .problem(.storage("the disk is full")))
        storage.failWrites(false)

        // Revoked behind the app's back: the next refresh ends the session, and says why.
        let revoked = try await HTTPTestClient().post(fixture.server.url(Routes.revoke), form: [
            ("token", try #require(kept.refreshToken)), ("client_id", KitFixture.clientID)])
        #expect(revoked.status == 200)
        await #expect(throws: SignInError.notSignedIn) { try await session.refresh() }
        #expect(await changes.next() == .ended(.refreshTokenRefused(code: "invalid_grant")))

        // A new sign-in on the same storage is the same state; its sign-out is reported too.
        let again = try await fixture.signIn(client)
        #expect(again === session)
        let fresh = try #require(await again.currentTokens)
        #expect(await changes.next() == .tokensUpdated(fresh))
        _ = await again.signOut()
        #expect(await changes.next() == .ended(.signedOut))
    }

    @Test func oneAccessTokenIsCachedPerResourceAndScope() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage, resources: KitFixture.resources)
        let session = try await fixture.signIn(client)
        let main = try #require(await session.currentTokens?.accessToken)
        #expect(fixture.tokenRequests == 1)
        #expect(try Self.claims(of: main)["aud"] == .array(KitFixture.resources.map(JSONValue.string)), "RFC 8707: both APIs granted")

        let api = try await session.freshAccessToken(for: "https://api.example", scope: ["openid", "email"])
        #expect(api != main)
        #expect(fixture.tokenRequests == 2)
        #expect(try Self.claims(of: api)["aud"] == .string("https://api.example"), "RFC 8707 §2: narrowed to one API")
        let apiScope = try #require(try Self.claims(of: api)["scope"]?.stringValue)
        #expect(Set(apiScope.split(separator: " ")) == ["openid", "email"], "RFC 6749 §6: the scope narrowed")
        #expect(try await session.freshAccessToken(for: "https://api.example", scope: ["email", "openid"]) == api, "cached")
        #expect(fixture.tokenRequests == 2)

        let other = try await session.freshAccessToken(for: "https://other.example")
        #expect(other != api && other != main)
        #expect(try Self.claims(of: other)["aud"] == .string("https://other.example"))
        #expect(fixture.tokenRequests == 3)
        // Another scope for a cached resource replaces its token (one per resource).
        let narrower = try await session.freshAccessToken(for: "https://api.example", scope: ["openid"])
        #expect(narrower != api)
        #expect(fixture.tokenRequests == 4)
        // The main token is untouched and still served without a request.
        #expect(try await session.freshAccessToken() == main)
        #expect(fixture.tokenRequests == 4)

        // Kept in storage, and each expires on its own.
        let stored = try #require(try storage.storedTokens(client))
        #expect(stored.resourceTokens.keys.sorted() == ["https://api.example", "https://other.example"])
        #expect(stored.resourceTokens["https://api.example"]?.accessToken == narrower)
        let expiry = try #require(stored.resourceTokens["https://other.example"]?.expiresAt)
        fixture.server.clock.advance(by: expiry.timeIntervalSince(fixture.server.clock.now) + 1)
        let renewedOther = try await session.freshAccessToken(for: "https://other.example")
        #expect(renewedOther != other)
        #expect(fixture.tokenRequests == 5)
    }

    /// The unverified payload of a JWT (the test only reads what the server put there).
    static func claims(of token: String) throws -> [String: JSONValue] {
        let parts = token.split(separator: ".")
        let payload = try #require(Base64URL.decode(String(parts[1])))
        return try #require(try JSONValue.parse(payload).objectValue)
    }

    /// Checks `condition` every 5 ms for at most 10 s.
    func waitUntil(_ condition: () async -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !(await condition()) {
            if Date() > deadline { return false }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }
}

/// In-memory storage whose writes can be made to fail (a locked keychain, a full disk).
final class FlakyStorage: TokenStorage {
    private let backing = InMemoryTokenStorage()
    private let failing = Mutex(false)

    func failWrites(_ fail: Bool) { failing.withLock { $0 = fail } }

    func read(_ key: String) throws(TokenStorageError) -> [UInt8]? { try backing.read(key) }

    func write(_ key: String, _ value: [UInt8]) throws(TokenStorageError) {
        if failing.withLock({ $0 }) { throw TokenStorageError("the disk is full") }
        try backing.write(key, value)
    }

    func remove(_ key: String) throws(TokenStorageError) { try backing.remove(key) }
}

/// Another holder of the same bytes, with its own identity (as another process would be).
final class SeparateHolder: TokenStorage {
    private let backing: InMemoryTokenStorage
    init(_ backing: InMemoryTokenStorage) { self.backing = backing }
    func read(_ key: String) throws(TokenStorageError) -> [UInt8]? { try backing.read(key) }
    func write(_ key: String, _ value: [UInt8]) throws(TokenStorageError) { try backing.write(key, value) }
    func remove(_ key: String) throws(TokenStorageError) { try backing.remove(key) }
}

extension TokenStorage {
    /// The tokens the client's key holds in this storage.
    func storedTokens(_ client: SignInClient) throws -> StoredTokens? {
        guard let bytes = try read(client.tokensKey) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(StoredTokens.self, from: Data(bytes))
    }
}
