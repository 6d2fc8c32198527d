import Foundation
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// The native JSON API with a software authenticator in the test: options bound to the client
/// and its PKCE challenge, the assertion, a code redeemed at /token with the verifier.
@Suite("Passkeys from a native app", .serialized, .endToEndLimit) struct PasskeyNativeTests {
    func authorizeForm(client: String = "native", pkce: PKCEPair) -> [(String, String)] {
        [("response_type", "code"), ("client_id", client), ("redirect_uri", Interactive.callback), ("scope", "openid offline_access"),
         ("state", "native-state"), ("nonce", "n-1"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]
    }

    func finishURL(_ fixture: PasskeyFixture, client: String = "native", challenge: String) -> URL {
        fixture.server.url(Routes.passkeyNativeFinish, query: [("client_id", client), ("code_challenge", challenge)])
    }

    @Test func anAppSignsInWithAPasskeyAndRedeemsTheCodeWithItsVerifier() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        // The app's platform API runs the ceremony for the RP ID with the app's origin.
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin, backupEligible: true)
        try await fixture.register(device)
        let pkce = PKCEPair.generate()
        let started = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: authorizeForm(pkce: pkce))
        #expect(started.status == 200, "\(started)")
        #expect(started.setCookies.isEmpty)
        let options = try #require(try started.json()["publicKey"])
        #expect(options["rpId"]?.stringValue == fixture.rpID && options["userVerification"] == "required")
        let body = try device.assert(options)
        let finished = try await HTTPTestClient().send(method: "POST", url: finishURL(fixture, challenge: pkce.challenge), body: body,
                                                       headers: ["Content-Type": "application/json"])
        #expect(finished.status == 200, "\(finished)")
        #expect(finished.setCookies.isEmpty)
        let answer = try finished.json()
        #expect(answer["state"] == "native-state" && answer["iss"]?.stringValue == fixture.server.issuer)
        #expect(answer["redirect_uri"]?.stringValue == Interactive.callback)
        let code = try #require(answer["code"]?.stringValue)
        // The wrong verifier is refused; the right one gets tokens with the passkey's amr.
        let wrong = try await fixture.env.redeem(code: code, pkce: PKCEPair.generate())
        #expect(wrong.status == 400)
        #expect(try wrong.json()["error"] == "invalid_grant")
        let started2 = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: authorizeForm(pkce: pkce))
        let options2 = try #require(try started2.json()["publicKey"])
        let finished2 = try await HTTPTestClient().send(method: "POST", url: finishURL(fixture, challenge: pkce.challenge),
                                                        body: try device.assert(options2), headers: ["Content-Type": "application/json"])
        let code2 = try #require(try finished2.json()["code"]?.stringValue)
        let tokens = try await fixture.env.redeem(code: code2, pkce: pkce)
        #expect(tokens.status == 200, "\(tokens)")
        let idToken = try #require(try tokens.json()["id_token"]?.stringValue)
        let claims = try #require(try JSONValue.parse(Base64URL.decode(idToken.split(separator: ".")[1]) ?? []).objectValue)
        #expect(claims["amr"] == .array(["swk", "user"]))
        #expect(claims["sub"]?.stringValue == fixture.env.user.id)
    }

    @Test func theCeremonyIsBoundToTheClientAndItsPKCEChallengeAndOnlyFirstPartyAppsMayUseIt() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let before = try fixture.passkeys()
        // A third-party client may not skip the browser.
        let thirdParty = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions),
                                                         form: authorizeForm(client: "app", pkce: PKCEPair.generate()).map {
                                                             $0.0 == "redirect_uri" ? ($0.0, "com.example.other:/cb") : $0 })
        expectPasskeyError(thirdParty, "unauthorized_client", "first-party public clients")
        // Without PKCE: refused by the authorization request's own rules.
        let noPKCE = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions),
                                                     form: authorizeForm(pkce: PKCEPair.generate()).filter { !$0.0.hasPrefix("code_challenge") })
        #expect(noPKCE.status == 400)
        #expect(try noPKCE.json()["error"] == "invalid_request")

        let pkce = PKCEPair.generate()
        let started = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: authorizeForm(pkce: pkce))
        let options = try #require(try started.json()["publicKey"])
        // Finished with another PKCE challenge (an app that did not start it): refused, and the
        // challenge is used up.
        let body = try device.assert(options)
        let other = try await HTTPTestClient().send(method: "POST", url: finishURL(fixture, challenge: PKCEPair.generate().challenge), body: body,
                                                    headers: ["Content-Type": "application/json"])
        expectPasskeyError(other, "access_denied", "issued to another session")
        let replay = try await HTTPTestClient().send(method: "POST", url: finishURL(fixture, challenge: pkce.challenge), body: body,
                                                     headers: ["Content-Type": "application/json"])
        expectPasskeyError(replay, "invalid_request", "unknown, expired or already used")
        // An Android origin that is not configured.
        let started2 = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: authorizeForm(pkce: pkce))
        let android = try device.assert(try #require(try started2.json()["publicKey"]),
                                        origin: "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        let refused = try await HTTPTestClient().send(method: "POST", url: finishURL(fixture, challenge: pkce.challenge), body: android,
                                                      headers: ["Content-Type": "application/json"])
        expectPasskeyError(refused, "invalid_request", "is not allowed")
        #expect(try fixture.passkeys() == before)
    }

    @Test func anAndroidOriginIsAcceptedOnceConfigured() async throws {
        let origin = "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
        let fixture = try await PasskeyFixture { $0.passkeys.allowedOrigins = [origin] }
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let pkce = PKCEPair.generate()
        let started = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: authorizeForm(pkce: pkce))
        let body = try device.assert(try #require(try started.json()["publicKey"]), origin: origin)
        let finished = try await HTTPTestClient().send(method: "POST", url: finishURL(fixture, challenge: pkce.challenge), body: body,
                                                       headers: ["Content-Type": "application/json"])
        #expect(finished.status == 200, "\(finished)")
        #expect(try finished.json()["code"]?.stringValue?.hasPrefix("sgc_") == true)
    }
}
