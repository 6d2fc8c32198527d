import SignetCrypto
import SignetJOSE
import Testing
@testable import SignetWebAuthn

/// The vectors of scripts/testing/webauthn_vectors.py: keys, signatures, certificates and CBOR made
/// with pyca/cryptography and python-fido2 (whose own verifier accepted every positive registration
/// when they were made). Each refusal is a real, signed ceremony with exactly one thing wrong.
@Suite struct VectorTests {
    @Test func theVectorFileIsThere() {
        // scripts/testing/webauthn_vectors.py writes 77 cases: 11 good registrations, 39 refused,
        // 6 good assertions, 21 refused, each under its own name.
        #expect(Vectors.generated.count == 77)
        #expect(Set(Vectors.generatedNames).count == 77)
        func count(_ ceremony: String, ok: Bool) -> Int {
            Vectors.generated.filter { $0["ceremony"]?.stringValue == ceremony && ($0["expect"] == "ok") == ok }.count
        }
        #expect(count("registration", ok: true) == 11 && count("registration", ok: false) == 39)
        #expect(count("assertion", ok: true) == 6 && count("assertion", ok: false) == 21)
    }

    @Test(arguments: Vectors.generatedNames)
    func vector(_ name: String) throws {
        let vector = try #require(Vectors.generatedCase(name))
        let expected = try #require(vector["expect"]?.stringValue)
        let expectation = try #require(Self.expectation(vector))
        let json = Array(try #require(vector["json"]?.stringValue).utf8)
        if vector["ceremony"] == "registration" {
            let outcome: WebAuthnError?
            if vector["raw"] == true {
                let response = try JSONValue.parse(json)["response"]
                let clientDataJSON = try #require(response?.bytes("clientDataJSON"))
                let attestationObject = try #require(response?.bytes("attestationObject"))
                outcome = refusal { () throws(WebAuthnError) in
                    try RegistrationVerifier.verify(clientDataJSON: clientDataJSON, attestationObject: attestationObject, expecting: expectation)
                }
            } else {
                outcome = refusal { () throws(WebAuthnError) in
                    try RegistrationVerifier.verify(RegistrationResponse(json: json), expecting: expectation)
                }
            }
            guard expected == "ok" else {
                #expect(outcome?.caseName == expected, "\(name): \(outcome.map { "\($0)" } ?? "accepted")")
                return
            }
            #expect(outcome == nil, "\(name): \(outcome.map { "\($0)" } ?? "")")
            let record = try RegistrationVerifier.verify(RegistrationResponse(json: json), expecting: expectation)
            #expect(record.id == vector.bytes("credentialId"))
            #expect(record.publicKey.bytes == vector.bytes("cose"))
            #expect(record.publicKey.algorithm.rawValue == vector["alg"]?.intValue)
            #expect(record.attestationFormat == vector["format"]?.stringValue)
            let flags = try #require(vector["flags"]?.intValue)
            #expect(record.backupEligible == (flags & 0x08 != 0))
            #expect(record.backupState == (flags & 0x10 != 0))
            #expect(record.signCount == 0)
            #expect(record.transports == ["internal", "hybrid"])
            #expect(record.aaguid == Array(hex: "c0ffee00112233445566778899aabbcc"))
        } else {
            let stored = try #require(vector["stored"])
            let credential = try StoredCredential(
                id: #require(stored.bytes("id")), userHandle: #require(stored.bytes("userHandle")),
                publicKey: COSEKey(bytes: #require(stored.bytes("cose"))),
                signCount: UInt32(#require(stored["signCount"]?.intValue)),
                backupEligible: #require(stored["backupEligible"]?.boolValue))
            var result: VerifiedAssertion?
            let outcome = refusal { () throws(WebAuthnError) in
                result = try AssertionVerifier.verify(AuthenticationResponse(json: json), credential: credential, expecting: expectation)
            }
            guard expected.hasPrefix("ok") else {
                #expect(outcome?.caseName == expected, "\(name): \(outcome.map { "\($0)" } ?? "accepted")")
                return
            }
            #expect(outcome == nil, "\(name): \(outcome.map { "\($0)" } ?? "")")
            let verified = try #require(result)
            #expect(Int64(verified.signCount) == vector["signCount"]?.intValue)
            #expect(verified.possibleClone == (expected == "ok-clone"))
            let flags = try #require(vector["flags"]?.intValue)
            #expect(verified.backupState == (flags & 0x10 != 0))
            #expect(verified.amr == [flags & 0x08 != 0 ? "swk" : "hwk", "user"])
        }
    }

    static func expectation(_ vector: JSONValue) -> WebAuthnExpectation? {
        guard let challenge = vector.bytes("challenge"), let origins = vector["origins"]?.arrayValue?.compactMap(\.stringValue),
              let rpID = vector["rpId"]?.stringValue else { return nil }
        return WebAuthnExpectation(challenge: challenge, origins: Set(origins), rpID: rpID)
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self = bytes
    }
}
