import Foundation
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import SignetWebAuthn
import SignetWire
import Testing

/// The native registration API over real HTTP: a signed-in first-party app adds a passkey with
/// its access token (`passkeys:write`), and each refusal leaves the store as it was.
@Suite("Passkey registration from a native app", .serialized, .endToEndLimit) struct PasskeyNativeRegistrationTests {
    /// Alice's access token for a first-party app (`passkey-app`, registered here: the server
    /// caches the clients it has read), with `scope`.
    static func accessToken(_ fixture: PasskeyFixture, scope: String) async throws -> String {
        let now = fixture.server.clock.now
        try fixture.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "passkey-app", name: "Passkey App", isPublic: true, firstParty: true, redirectURIs: [Interactive.loopback],
            allowedScopes: ["openid", "offline_access", Scope.passkeysWrite], grantTypes: ["authorization_code", "refresh_token"],
            tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        let page = try await browser.open(fixture.env.authorizeURL(client: "passkey-app", pkce: pkce, extra: [("scope", scope)]))
        #expect(page.response.status == 200, "\(page.response)")
        let redirect = try await fixture.env.submitCredentials(browser).requireRedirect()
        let code = try #require(redirect["code"], "\(redirect)")
        let tokens = try await fixture.env.redeem(code: code, pkce: pkce, client: "passkey-app")
        #expect(tokens.status == 200, "\(tokens)")
        return try #require(try tokens.json()["access_token"]?.stringValue)
    }

    func options(_ fixture: PasskeyFixture, token: String?) async throws -> TestResponse {
        try await HTTPTestClient().send(method: "POST", url: fixture.server.url(Routes.passkeyNativeRegisterOptions), body: [],
                                        headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    func finish(_ fixture: PasskeyFixture, token: String?, _ body: [UInt8], type: String = "application/json") async throws -> TestResponse {
        let headers: HTTPHeaders = token.map { ["Content-Type": type, "Authorization": "Bearer \($0)"] } ?? ["Content-Type": type]
        return try await HTTPTestClient().send(method: "POST", url: fixture.server.url(Routes.passkeyNativeRegisterFinish), body: body,
                                               headers: headers)
    }

    @Test func anAppAddsAPasskeyWithItsAccessTokenAndThenSignsInWithIt() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let token = try await Self.accessToken(fixture, scope: "openid \(Scope.passkeysWrite)")
        let started = try await options(fixture, token: token)
        #expect(started.status == 200, "\(started)")
        #expect(started.header("Cache-Control") == "no-store")
        let publicKey = try #require(try started.json()["publicKey"])
        #expect(publicKey["rp"]?["id"]?.stringValue == fixture.rpID)
        #expect(publicKey["user"]?["id"]?.stringValue == Base64URL.encode(Array(fixture.env.user.id.utf8)))
        #expect(publicKey["authenticatorSelection"]?["userVerification"] == "required")
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin, backupEligible: true)
        let finished = try await finish(fixture, token: token, device.register(publicKey))
        #expect(finished.status == 200, "\(finished)")
        #expect(try finished.json()["id"]?.stringValue == Base64URL.encode(device.credentialID))
        #expect(try finished.json()["name"] == "Passkey")
        let stored = try #require(try fixture.passkeys().first)
        #expect(try fixture.passkeys().count == 1 && stored.id == device.credentialID && stored.backupEligible)
        // The new passkey signs in on the web.
        let (browser, signInOptions) = try await fixture.startSignIn()
        let signedIn = try await fixture.finishSignIn(try device.assert(signInOptions), browser: browser)
        #expect(signedIn.status == 200, "\(signedIn)")
        // Registered already: the options exclude it, and registering it again is refused.
        let again = try #require(try await options(fixture, token: token).json()["publicKey"])
        #expect(again["excludeCredentials"]?.arrayValue?.first?["id"]?.stringValue == Base64URL.encode(device.credentialID))
        expectPasskeyError(try await finish(fixture, token: token, device.register(again)), "invalid_request", "registered already")
    }

    @Test func withoutAFittingTokenNothingIsIssuedOrStored() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        let withoutScope = try await Self.accessToken(fixture, scope: "openid offline_access")
        // RFC 6750 §3.1: no token is the bare challenge.
        for response in [try await options(fixture, token: nil), try await finish(fixture, token: nil, Array("{}".utf8))] {
            #expect(response.status == 401, "\(response)")
            #expect(response.header("WWW-Authenticate") == #"Bearer realm="signet""#)
            #expect(response.header("Cache-Control") == "no-store")
        }
        // A token that is not Signet's, or without passkeys:write.
        let forged = try await options(fixture, token: "eyJhbGciOiJFUzI1NiJ9.e30.c2ln")
        expectPasskeyError(forged, status: 401, "invalid_token", "invalid or expired")
        #expect(forged.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        let scoped = try await options(fixture, token: withoutScope)
        expectPasskeyError(scoped, status: 403, "insufficient_scope", Scope.passkeysWrite)
        #expect(scoped.header("WWW-Authenticate")?.contains(#"error="insufficient_scope""#) == true)
        // A third-party client is never granted the scope, even when its registration lists it.
        let now = fixture.server.clock.now
        try fixture.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "partner-app", name: "Partner", isPublic: true, redirectURIs: ["com.example.partner:/cb"],
            allowedScopes: ["openid", Scope.passkeysWrite], grantTypes: ["authorization_code"], tokenEndpointAuthMethod: "none",
            createdAt: now, updatedAt: now))
        let thirdParty = try await FormBrowser().open(fixture.env.authorizeURL(client: "partner-app", redirectURI: "com.example.partner:/cb",
                                                                              pkce: PKCEPair.generate(),
                                                                              extra: [("scope", "openid \(Scope.passkeysWrite)")]))
        #expect(thirdParty.redirect?["error"] == "invalid_scope", "\(thirdParty.response)")
        #expect(thirdParty.redirect?["error_description"] == "The passkeys:write scope is only granted to first-party apps.")
        // A registration response posted with the unscoped token: refused before it is read.
        let granted = try await Self.accessToken(fixture, scope: "openid \(Scope.passkeysWrite)")
        let publicKey = try #require(try await options(fixture, token: granted).json()["publicKey"])
        expectPasskeyError(try await finish(fixture, token: withoutScope, device.register(publicKey)), status: 403,
                           "insufficient_scope", Scope.passkeysWrite)
        #expect(try fixture.passkeys().isEmpty)
    }

    @Test func aBadResponseIsRefusedAndItsChallengeCannotBeReplayed() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let token = try await Self.accessToken(fixture, scope: "openid \(Scope.passkeysWrite)")
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        func fresh() async throws -> JSONValue { try #require(try await options(fixture, token: token).json()["publicKey"]) }

        // A wrong origin, then the same challenge replayed with a correct response.
        let first = try await fresh()
        expectPasskeyError(try await finish(fixture, token: token, device.register(first, origin: "https://evil.example")),
                           "invalid_request", "is not allowed")
        expectPasskeyError(try await finish(fixture, token: token, device.register(first)), "invalid_request",
                           "unknown, expired or already used")
        // A wrong RP ID.
        expectPasskeyError(try await finish(fixture, token: token, device.register(try await fresh(), rpID: "evil.example")),
                           "invalid_request", "rpIdHash")
        // User verification not done.
        expectPasskeyError(try await finish(fixture, token: token, device.register(try await fresh(), flags: 0x01)),
                           "invalid_request", "user-verified (UV) flag is not set")
        // A packed self attestation whose signature is not the credential key's.
        let forgedStatement: CBORValue = [.text("alg"): .negative(7), .text("sig"): .bytes(SecureRandom.bytes(64))]
        let badAttestation = try await finish(fixture, token: token, device.register(try await fresh(), statement: ("packed", forgedStatement)))
        expectPasskeyError(badAttestation, "invalid_request", "self attestation signature does not verify")
        // Not JSON, and malformed JSON.
        expectPasskeyError(try await finish(fixture, token: token, device.register(try await fresh()), type: "application/x-www-form-urlencoded"),
                           "invalid_request", "application/json")
        expectPasskeyError(try await finish(fixture, token: token, Array("{\"id\":".utf8)), "invalid_request", "response JSON is malformed")
        // Another grant of the same user (a second sign-in) cannot finish this one's ceremony.
        let other = try await Self.accessToken(fixture, scope: "openid \(Scope.passkeysWrite)")
        expectPasskeyError(try await finish(fixture, token: other, device.register(try await fresh())), "access_denied",
                           "issued to another session")
        #expect(try fixture.passkeys().isEmpty)
    }
}
