import SignetCrypto
import SignetJOSE
import Testing
@testable import SignetWebAuthn

/// The options JSON handed to `parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`.
@Suite struct OptionsTests {
    let challenge = [UInt8](repeating: 0xAB, count: 32)

    @Test func creationOptionsCarrySignetsPolicy() throws {
        let options = try CreationOptions(rpID: "login.example.com", rpName: "Example",
                                          user: try UserEntity(id: [1, 2, 3], name: "ada", displayName: "Ada"),
                                          challenge: challenge, timeoutMilliseconds: 120_000,
                                          excludeCredentials: [CredentialDescriptor(id: [9, 9], transports: ["internal"])])
        let json = try JSONValue.parse(options.json.serialized())
        #expect(json["rp"] == ["id": "login.example.com", "name": "Example"])
        #expect(json["user"] == ["id": "AQID", "name": "ada", "displayName": "Ada"])
        #expect(json["challenge"]?.stringValue == Base64URL.encode(challenge))
        #expect(json["pubKeyCredParams"] == [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -8],
                                             ["type": "public-key", "alg": -257]])
        #expect(json["authenticatorSelection"] == ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"])
        #expect(json["attestation"] == "none")
        #expect(json["timeout"] == 120_000)
        #expect(json["excludeCredentials"] == [["type": "public-key", "id": "CQk", "transports": ["internal"]]])
    }

    @Test func requestOptions() throws {
        let discoverable = try RequestOptions(rpID: "login.example.com", challenge: challenge)
        #expect(discoverable.json["allowCredentials"] == [])
        #expect(discoverable.json["userVerification"] == "required")
        #expect(discoverable.json["rpId"] == "login.example.com")
        let named = try RequestOptions(rpID: "login.example.com", challenge: challenge, allowCredentials: [CredentialDescriptor(id: [7])])
        #expect(named.json["allowCredentials"] == [["type": "public-key", "id": "Bw"]])
    }

    @Test func refusesWeakChallengesAndLongUserHandles() {
        #expect(refusal { () throws(WebAuthnError) in try RequestOptions(rpID: "x", challenge: [1, 2, 3]) }
                == .malformed(field: "challenge", reason: "must be at least 16 bytes"))
        #expect(refusal { () throws(WebAuthnError) in
            try UserEntity(id: [UInt8](repeating: 1, count: 65), name: "a", displayName: "a")
        } == .malformed(field: "user.id", reason: "must be 1 to 64 bytes"))
    }
}
