import Foundation
import SignetClientCore
@testable import SignetKit
import SignetTesting
import SignetWire
import Testing

/// The kit against the mock provider, whose misbehaviour switches mint bad ID tokens.
@Suite("SignetKit refuses bad ID tokens", .endToEndLimit) struct MockProviderIDTokenTests {
    static let redirect = "http://127.0.0.1:50126/callback"

    func client(_ mock: MockProvider) async throws -> SignInClient {
        try await SignInClient.discover(
            ClientConfiguration(issuer: mock.issuer, clientID: mock.clientID, redirectURI: "http://127.0.0.1/callback",
                                scopes: ["openid", "email", "profile"], clientAuthentication: .post(secret: mock.clientSecret)),
            storage: InMemoryTokenStorage())
    }

    /// Begins a sign-in and returns the callback the (auto-approving) mock redirects to.
    func callback(_ client: SignInClient) async throws -> URL {
        let request = try client.beginSignIn(redirectURI: Self.redirect)
        let response = try await HTTPTestClient().get(request.authorizationURL)
        #expect(response.status == 302)
        return try #require(response.location.flatMap(URL.init(string:)))
    }

    @Test func aValidTokenSignsIn() async throws {
        let mock = try MockProvider(flavor: .generic)
        defer { mock.stop() }
        let client = try await client(mock)
        let session = try await client.completeSignIn(callback: try await callback(client))
        #expect(await session.subject == mock.user.subject)
        #expect(await session.currentTokens?.claims["email"] == mock.user.email)
    }

    /// The check that must fire for each flaw: the reason `SignInError.invalidIDToken` carries
    /// (`SignInClient.describe`), so a token refused by the wrong check does not pass.
    static let reasons: [String: String] = [
        "iss": "wrong iss", "aud": "wrong aud", "exp": "expired", "signature": "badSignature",
        "kid": "no key for its kid (unknownKeyID)", "nonce": "no nonce",
        "nonce mismatch": "nonce mismatch", "forged": "badSignature", "alg none": "algorithmNone",
        "hs256": "algorithm not allowed",
    ]

    @Test(arguments: ["iss", "aud", "exp", "signature", "kid", "nonce"])
    func aBadIDTokenIsRefused(_ flaw: String) async throws {
        let mock = try MockProvider(flavor: .generic)
        defer { mock.stop() }
        let client = try await client(mock)
        switch flaw {
        case "iss": mock.behaviour.wrongIssuer = true
        case "aud": mock.behaviour.wrongAudience = true
        case "exp": mock.behaviour.expiredTokens = true
        case "signature": mock.behaviour.badSignature = true
        case "kid": mock.behaviour.unknownKeyID = true
        default: mock.behaviour.omitNonce = true
        }
        let url = try await callback(client)
        do {
            _ = try await client.completeSignIn(callback: url)
            Issue.record("an ID token with a bad \(flaw) was accepted")
        } catch {
            guard error.code == .invalidIDToken, let reason = error.detail else { Issue.record("\(flaw): \(error)"); return }
            #expect(reason == Self.reasons[flaw], "\(flaw)")
        }
        #expect(client.restoreSession() == nil, "nothing is stored")
    }

    @Test func aTokenForAnotherNonceOrWithAForgedSignatureIsRefused() async throws {
        let mock = try MockProvider(flavor: .generic)
        defer { mock.stop() }
        let client = try await client(mock)
        let cases: [(String, String)] = [
            ("nonce mismatch", try mock.mintIDToken(nonce: "another-nonce")),
            ("forged", try mock.mintIDToken(nonce: "n-1", signing: .forgedWithPublishedKeyID)),
            ("alg none", try mock.mintIDToken(nonce: "n-1", signing: .algorithmNone)),
            ("hs256", try mock.mintIDToken(nonce: "n-1", signing: .hs256)),
        ]
        for (name, token) in cases {
            let response = TokenResponse(accessToken: "at", expiresIn: 60, idToken: token)
            do {
                _ = try await client.makeTokens(from: response, nonce: "n-1", previous: nil)
                Issue.record("\(name) was accepted")
            } catch {
                guard error.code == .invalidIDToken, let reason = error.detail else { Issue.record("\(name): \(error)"); continue }
                #expect(reason == Self.reasons[name], "\(name)")
            }
        }
        // The same path accepts the right nonce.
        let good = TokenResponse(accessToken: "at", expiresIn: 60, idToken: try mock.mintIDToken(nonce: "n-1"))
        #expect(try await client.makeTokens(from: good, nonce: "n-1", previous: nil).subject == mock.user.subject)
    }

    @Test func providerErrorsAndWrongDiscoveryAreTyped() async throws {
        let mock = try MockProvider(flavor: .generic)
        defer { mock.stop() }
        let client = try await client(mock)
        mock.behaviour.callbackError = "access_denied"
        await #expect(throws: SignInError.authorizationError(code: "access_denied", description: nil)) {
            try await client.completeSignIn(callback: try await callback(client))
        }
        mock.behaviour.callbackError = nil
        mock.behaviour.wrongState = true
        await #expect(throws: SignInError.stateMismatch) { try await client.completeSignIn(callback: try await callback(client)) }
        mock.behaviour.wrongState = false
        mock.behaviour.wrongDiscoveryIssuer = true
        do {
            _ = try await self.client(mock)
            Issue.record("a discovery document for another issuer was accepted")
        } catch {
            guard (error as? SignInError)?.code == .issuerMismatch else { Issue.record("\(error)"); return }
        }
    }
}
