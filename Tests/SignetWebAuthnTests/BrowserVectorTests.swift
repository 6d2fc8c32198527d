import SignetCrypto
import SignetJOSE
import Testing
@testable import SignetWebAuthn

/// A registration and an assertion made by Chromium's WebDriver virtual authenticator (CTAP2,
/// internal transport, resident key, user verification), captured by
/// scripts/testing/webauthn_browser_capture.py: the browser's own `toJSON()` output.
@Suite struct BrowserVectorTests {
    static let capture = try? Vectors.load("chromium.json")

    @Test func chromiumRegistrationAndAssertionVerify() throws {
        let capture = try #require(Self.capture)
        let origin = try #require(capture["origin"]?.stringValue)
        let rpID = try #require(capture["rpId"]?.stringValue)
        let registrationJSON = try #require(capture["registration"]).serialized()
        let registration = try RegistrationResponse(json: registrationJSON)
        let record = try RegistrationVerifier.verify(
            registration, expecting: WebAuthnExpectation(challenge: #require(capture.bytes("createChallenge")), origins: [origin], rpID: rpID))
        #expect(record.attestationFormat == "none")
        #expect(record.publicKey.algorithm == .es256)
        #expect(record.transports == ["internal"])
        // The browser's own SPKI form of the key (`response.publicKey`) is the key the COSE bytes give.
        #expect(record.publicKey.publicKey.spkiDER == capture["registration"]?["response"]?.bytes("publicKey"))

        let assertion = try AuthenticationResponse(json: #require(capture["assertion"]).serialized())
        #expect(assertion.id == record.id)
        #expect(assertion.userHandle == capture.bytes("userHandle"))
        let credential = try StoredCredential(id: record.id, userHandle: #require(capture.bytes("userHandle")), publicKey: record.publicKey,
                                              signCount: record.signCount, backupEligible: record.backupEligible)
        let getExpectation = try WebAuthnExpectation(challenge: #require(capture.bytes("getChallenge")), origins: [origin], rpID: rpID)
        let verified = try AssertionVerifier.verify(assertion, credential: credential, expecting: getExpectation)
        #expect(!verified.possibleClone)
        #expect(verified.signCount > record.signCount)
        #expect(verified.amr == [record.backupEligible ? "swk" : "hwk", "user"])

        // The same capture against the other ceremony's challenge, another origin or RP ID is refused.
        let createChallenge = try #require(capture.bytes("createChallenge")), getChallenge = try #require(capture.bytes("getChallenge"))
        for (expectation, error) in [
            (WebAuthnExpectation(challenge: createChallenge, origins: [origin], rpID: rpID), WebAuthnError.challengeMismatch),
            (WebAuthnExpectation(challenge: getChallenge, origins: ["https://localhost"], rpID: rpID), .originNotAllowed(origin)),
            (WebAuthnExpectation(challenge: getChallenge, origins: [origin], rpID: "example.com"), .rpIDMismatch),
        ] {
            #expect(refusal { () throws(WebAuthnError) in
                try AssertionVerifier.verify(assertion, credential: credential, expecting: expectation)
            } == error)
        }
    }
}
