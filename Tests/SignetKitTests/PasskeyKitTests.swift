import Foundation
import SignetClientCore
import SignetCrypto
import SignetJOSE
import SignetKit
import SignetServer
import SignetStore
import SignetTesting
import SignetWire
import Testing

/// SignetKit's native passkey flows against the real server over HTTP, with a software
/// authenticator behind `PasskeyAuthenticator` where an app has the platform's
/// (`PlatformPasskeyAuthenticator` on Apple platforms).
@Suite("SignetKit passkeys", .serialized, .endToEndLimit) struct PasskeyKitTests {
    /// `SoftwareAuthenticator` as a platform API: it reads SignetKit's decoded options and
    /// answers with the raw parts, as `ASAuthorizationPlatformPublicKeyCredentialProvider` does.
    struct SoftwarePlatform: PasskeyAuthenticator {
        let device: SoftwareAuthenticator
        /// What the client data names as the origin (an app's platform sends the RP's web origin).
        var origin: String?
        var failure: SignInError?

        func assertion(for options: PasskeyAssertionOptions) async throws -> PasskeyAssertion {
            if let failure { throw failure }
            #expect(options.relyingPartyID == device.rpID && options.userVerification == "required" && options.allowedCredentialIDs.isEmpty)
            let parts = try device.assertion(challenge: Base64URL.encode(options.challenge), origin: origin)
            return PasskeyAssertion(credentialID: Data(device.credentialID), clientDataJSON: Data(parts.clientDataJSON),
                                    authenticatorData: Data(parts.authenticatorData), signature: Data(parts.signature),
                                    userHandle: device.userHandle.map { Data($0) })
        }

        func attestation(for options: PasskeyRegistrationOptions) async throws -> PasskeyAttestation {
            if let failure { throw failure }
            #expect(options.relyingPartyID == device.rpID && options.userName == KitFixture.email && options.userVerification == "required")
            #expect(options.algorithms.contains(-8))
            device.userHandle = Array(options.userID)
            let parts = device.attestation(challenge: Base64URL.encode(options.challenge), origin: origin)
            return PasskeyAttestation(credentialID: Data(device.credentialID), clientDataJSON: Data(parts.clientDataJSON),
                                      attestationObject: Data(parts.attestationObject), transports: ["internal"])
        }
    }

    /// A first-party client of the fixture's server that may ask for `passkeys:write`.
    func client(_ fixture: KitFixture, scopes: [String], storage: any TokenStorage = InMemoryTokenStorage()) async throws -> SignInClient {
        let now = fixture.server.clock.now
        try fixture.server.environment.storage.clients.upsertClient(ClientRecord(
            id: KitFixture.clientID, name: "Native", isPublic: true, firstParty: true, redirectURIs: [KitFixture.registeredRedirect],
            allowedScopes: ["openid", "email", "offline_access", Scope.passkeysWrite], grantTypes: ["authorization_code", "refresh_token"],
            tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        var configuration = fixture.configuration
        configuration.scopes = scopes
        let provider = try await ProviderConfiguration.discover(issuer: fixture.server.issuer, http: OutboundHTTP())
        return try SignInClient(configuration: configuration, provider: provider, storage: storage, clock: fixture.clock)
    }

    func device(_ fixture: KitFixture) throws -> SoftwareAuthenticator {
        try SoftwareAuthenticator(rpID: try #require(URLComponents(string: fixture.server.issuer)?.host), origin: fixture.server.issuer)
    }

    @Test func anAppAddsAPasskeyAndSignsInWithItWithoutABrowser() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let platform = SoftwarePlatform(device: try device(fixture))
        let signedIn = try await client(fixture, scopes: ["openid", "email", Scope.passkeysWrite])
        let session = try await fixture.signIn(signedIn)
        let added = try await signedIn.addPasskey(to: session, using: platform)
        #expect(added.id == Base64URL.encode(platform.device.credentialID) && added.name == "Security key")
        let stored = try fixture.server.environment.storage.passkeys.passkeys(userID: fixture.userID)
        #expect(stored.map(\.id) == [platform.device.credentialID])

        // Another install of the app, nothing stored: the passkey alone signs in.
        let storage = InMemoryTokenStorage()
        let fresh = try await client(fixture, scopes: ["openid", "email", "offline_access"], storage: storage)
        let passkeySession = try await fresh.signInWithPasskey(using: platform)
        let tokens = try #require(await passkeySession.currentTokens)
        #expect(tokens.subject == fixture.userID && tokens.claims["email"] == KitFixture.email && tokens.refreshToken != nil)
        let payload = try #require(tokens.idToken.flatMap { Base64URL.decode($0.split(separator: ".")[1]) })
        #expect(try JSONValue.parse(payload)["amr"] == .array(["hwk", "user"]))
        #expect(fresh.restoreSession() != nil)
        #expect(try fixture.server.environment.storage.passkeys.passkey(id: platform.device.credentialID)?.signCount == 1)
        // The access token works at the server.
        let userinfo = try await HTTPTestClient().get(fixture.server.url(Routes.userinfo),
                                                      headers: ["Authorization": "Bearer \(tokens.accessToken)"])
        #expect(userinfo.status == 200, "\(userinfo)")
    }

    @Test func refusalsReachTheAppAsSignInErrorsAndNothingIsStored() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let unknown = SoftwarePlatform(device: try device(fixture))
        let storage = InMemoryTokenStorage()
        let client = try await client(fixture, scopes: ["openid", "email"], storage: storage)
        // A passkey Signet never registered.
        await #expect(throws: SignInError.passkeyRefused(code: "access_denied", description: "This passkey is not registered here.")) {
            _ = try await client.signInWithPasskey(using: unknown)
        }
        // The user cancelled the sheet; a platform error.
        await #expect(throws: SignInError.cancelled) {
            _ = try await client.signInWithPasskey(using: SoftwarePlatform(device: unknown.device, failure: .cancelled))
        }
        #expect(client.restoreSession() == nil)
        // Registration with a session that lacks passkeys:write.
        let session = try await fixture.signIn(client)
        do {
            _ = try await client.addPasskey(to: session, using: unknown)
            Issue.record("registered without passkeys:write")
        } catch {
            #expect(error.code == .passkeyRefused && error.oauthError == "insufficient_scope")
        }
        // A platform that answers for another origin.
        let scoped = try await self.client(fixture, scopes: ["openid", "email", Scope.passkeysWrite])
        let scopedSession = try await fixture.signIn(scoped)
        do {
            _ = try await scoped.addPasskey(to: scopedSession, using: SoftwarePlatform(device: unknown.device, origin: "https://evil.example"))
            Issue.record("registered for another origin")
        } catch {
            #expect(error.code == .passkeyRefused && error.oauthError == "invalid_request")
        }
        #expect(try fixture.server.environment.storage.passkeys.passkeys(userID: fixture.userID).isEmpty)
        #expect(await scopedSession.isSignedIn)
    }
}
