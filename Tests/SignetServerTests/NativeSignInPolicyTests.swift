import Foundation
import SignetClientCore
import SignetJOSE
import SignetTesting
import SignetWire
import Testing

/// Native ID-token sign-in applies the browser callback's account rules exactly (one policy,
/// `Connection.checkPolicy`): `email_verified` must be the JSON boolean for Google and generic
/// OpenID providers, Google's `hd` must match `hosted_domain`, and `allowed_email_domains` admits
/// only a verified email in a listed domain. Each refusal is `invalid_grant` over real HTTP,
/// with no account or link created.
@Suite(.endToEndLimit) struct NativeSignInPolicyTests {
    /// Expects the exchange to be refused with `invalid_grant` and nothing created.
    func expectRefused(_ fixture: NativeSignInFixture, connection: String, provider: MockProvider,
                       sourceLocation: SourceLocation = #_sourceLocation, claims: (inout JWTClaims) -> Void = { _ in }) async throws {
        let before = try fixture.userCount()
        let nonce = try await fixture.nonce()
        let response = try await fixture.exchange(try provider.mintIDToken(nonce: nonce, configure: claims), connection: connection,
                                                  nonce: nonce)
        #expect(response.status == 400, "\(response.json)", sourceLocation: sourceLocation)
        #expect(response.json["error"] == "invalid_grant", sourceLocation: sourceLocation)
        #expect(response.json["access_token"] == nil, sourceLocation: sourceLocation)
        #expect(try fixture.userCount() == before, sourceLocation: sourceLocation)
        #expect(try fixture.core.storage.users.federatedIdentity(connectionID: connection, issuer: provider.issuer,
                                                                 subject: provider.user.subject) == nil, sourceLocation: sourceLocation)
    }

    /// Expects the exchange to sign in.
    func expectSignedIn(_ fixture: NativeSignInFixture, connection: String, provider: MockProvider,
                        sourceLocation: SourceLocation = #_sourceLocation, claims: (inout JWTClaims) -> Void = { _ in }) async throws {
        let nonce = try await fixture.nonce()
        let response = try await fixture.exchange(try provider.mintIDToken(nonce: nonce, configure: claims), connection: connection,
                                                  nonce: nonce)
        #expect(response.status == 200, "\(response.json)", sourceLocation: sourceLocation)
        #expect(response.json["access_token"] != nil, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["google", "oidc"])
    func emailVerifiedAsAStringIsNotVerified(_ connection: String) async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let provider = connection == "google" ? fixture.google : fixture.generic
        try await expectRefused(fixture, connection: connection, provider: provider) { $0["email_verified"] = .string("true") }
        try await expectSignedIn(fixture, connection: connection, provider: provider) { $0["email_verified"] = .bool(true) }
    }

    @Test func appleMaySendEmailVerifiedAsAString() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let raw = try await fixture.nonce()
        let token = try fixture.apple.mintIDToken(nonce: RandomToken.sha256Hex(raw)) { $0["email_verified"] = .string("true") }
        let response = try await fixture.exchange(token, connection: "apple", nonce: raw)
        #expect(response.status == 200, "\(response.json)")
    }

    @Test func googlesHostedDomainMustMatch() async throws {
        let fixture = try NativeSignInFixture { $0.hostedDomain = "example.com" }
        defer { fixture.stop() }
        try await expectRefused(fixture, connection: "google", provider: fixture.google)
        try await expectRefused(fixture, connection: "google", provider: fixture.google) { $0["hd"] = .string("other.example") }
        try await expectSignedIn(fixture, connection: "google", provider: fixture.google) { $0["hd"] = .string("example.com") }
    }

    @Test(arguments: ["google", "oidc"])
    func allowedEmailDomainsAdmitOnlyVerifiedEmailsInTheList(_ connection: String) async throws {
        let fixture = try NativeSignInFixture { $0.allowedEmailDomains = ["corp.example"] }
        defer { fixture.stop() }
        let provider = connection == "google" ? fixture.google : fixture.generic
        // The mock user's address is alice@example.com: not in the list.
        try await expectRefused(fixture, connection: connection, provider: provider)
        // In the list, but not vouched for.
        try await expectRefused(fixture, connection: connection, provider: provider) {
            $0["email"] = .string("alice@corp.example")
            $0["email_verified"] = .bool(false)
        }
        try await expectSignedIn(fixture, connection: connection, provider: provider) { $0["email"] = .string("alice@corp.example") }
    }
}
