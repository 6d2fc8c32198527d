import Foundation
import SignetKit
import SignetServer
import SignetTesting
import Testing

/// Every bad callback, with real authorization responses from a real Signet.
@Suite("SignetKit refuses bad callbacks", .endToEndLimit) struct BadCallbackEndToEndTests {
    static let redirect = "http://127.0.0.1:50124/callback"

    /// A real callback URL for a fresh sign-in, and the client that started it.
    func realCallback(_ fixture: KitFixture) async throws -> (SignInClient, URL) {
        let client = try await fixture.client()
        let request = try client.beginSignIn(redirectURI: Self.redirect)
        let target = try await fixture.authorize(request)
        return (client, try #require(target.url))
    }

    /// `url` with its query rewritten by `change`.
    func rewrite(_ url: URL, base: String? = nil, _ change: (inout [(String, String)]) -> Void) throws -> URL {
        let text = url.absoluteString
        let parts = text.split(separator: "?", maxSplits: 1)
        var pairs = QueryEncoding.decode(parts.count > 1 ? parts[1] : "")?.map { ($0.key, $0.value) } ?? []
        change(&pairs)
        return try #require(URL(string: (base ?? String(parts[0])) + "?" + QueryEncoding.encode(pairs)))
    }

    @Test func wrongOrMissingStateIsRefusedAndTheRealCallbackStillWorks() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let (client, callback) = try await realCallback(fixture)
        let wrong = try rewrite(callback) { pairs in pairs = pairs.map { $0.0 == "state" ? ("state", "forged") : $0 } }
        await #expect(throws: SignInError.stateMismatch) { try await client.completeSignIn(callback: wrong) }
        let missing = try rewrite(callback) { $0.removeAll { $0.0 == "state" } }
        await #expect(throws: SignInError.missingState) { try await client.completeSignIn(callback: missing) }
        let empty = try rewrite(callback) { pairs in pairs = pairs.map { $0.0 == "state" ? ("state", "") : $0 } }
        await #expect(throws: SignInError.stateMismatch) { try await client.completeSignIn(callback: empty) }
        // The forged ones did not spend the pending sign-in.
        let session = try await client.completeSignIn(callback: callback)
        #expect(await session.subject == fixture.userID)
    }

    @Test func wrongOrMissingIssuerIsRefused() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let (client, callback) = try await realCallback(fixture)
        #expect(callback.query?.contains("iss=") == true, "Signet sends iss (RFC 9207)")
        let wrong = try rewrite(callback) { pairs in pairs = pairs.map { $0.0 == "iss" ? ("iss", "https://evil.example") : $0 } }
        await #expect(throws: SignInError.issuerParameterMismatch) { try await client.completeSignIn(callback: wrong) }
        let missing = try rewrite(callback) { $0.removeAll { $0.0 == "iss" } }
        await #expect(throws: SignInError.missingIssuer) { try await client.completeSignIn(callback: missing) }
    }

    @Test func unexpectedHostPathOrPortIsRefused() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let (client, callback) = try await realCallback(fixture)
        for base in ["http://localhost:50124/callback", "http://127.0.0.1:50125/callback", "http://127.0.0.1:50124/other",
                     "https://127.0.0.1:50124/callback", "http://127.0.0.1:50124/callback/"] {
            let moved = try rewrite(callback, base: base) { _ in }
            do {
                _ = try await client.completeSignIn(callback: moved)
                Issue.record("\(base) was accepted")
            } catch {
                guard error.code == .unexpectedRedirect else { Issue.record("\(base): \(error)"); continue }
            }
        }
        _ = try await client.completeSignIn(callback: callback)
    }

    @Test func aSecondCallbackIsRefused() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let (client, callback) = try await realCallback(fixture)
        _ = try await client.completeSignIn(callback: callback)
        await #expect(throws: SignInError.noPendingSignIn) { try await client.completeSignIn(callback: callback) }
        // Replaying the same code through a new sign-in fails at the state check, not at the server.
        _ = try client.beginSignIn(redirectURI: Self.redirect)
        await #expect(throws: SignInError.stateMismatch) { try await client.completeSignIn(callback: callback) }
    }

    @Test func anErrorResponseIsTypedWithItsDescription() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let client = try await fixture.client()
        // prompt=none without a session: the server answers login_required at the redirect URI.
        let request = try client.beginSignIn(redirectURI: Self.redirect, extraParameters: [("prompt", "none")])
        let callback = try #require(try await fixture.authorize(request).url)
        do {
            _ = try await client.completeSignIn(callback: callback)
            Issue.record("an error response was accepted")
        } catch {
            guard error.code == .authorizationError else { Issue.record("got \(error)"); return }
            #expect(error.oauthError == "login_required")
            #expect(error.oauthErrorDescription?.isEmpty == false)
        }
        #expect(client.pendingSignIn() == nil, "an error response ends the sign-in")
    }

    @Test func cancellingForgetsThePendingSignIn() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let (client, callback) = try await realCallback(fixture)
        client.cancelSignIn()
        await #expect(throws: SignInError.noPendingSignIn) { try await client.completeSignIn(callback: callback) }
    }

    @Test func theRedirectURIMustMatchTheRegistration() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let client = try await fixture.client()
        #expect(throws: SignInError.self) { try client.beginSignIn(redirectURI: "http://127.0.0.1:8080/elsewhere") }
        #expect(throws: SignInError.self) { try client.beginSignIn(redirectURI: "http://localhost:8080/callback") }
    }
}
