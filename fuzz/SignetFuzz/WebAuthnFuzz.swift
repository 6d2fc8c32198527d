import SignetCrypto
import SignetWebAuthn

/// SignetWebAuthn's CBOR and the structures built on it: any bytes give a value or a
/// `WebAuthnError`. A decoded CBOR item re-encodes to bytes that decode to the same item and are
/// no longer than the input; parsed authenticator data has attested credential data exactly when
/// its AT flag is set, and a credential id of at most 1023 bytes; a registration whose
/// attestation object is the input is accepted only for this RP ID with UP and UV set.
enum WebAuthnFuzz {
    static let challenge = [UInt8](repeating: 7, count: 32)
    static let clientDataJSON = Array(#"{"type":"webauthn.create","challenge":"\#(Base64URL.encode(challenge))","origin":"https://login.example.com"}"#.utf8)
    static let expectation = WebAuthnExpectation(challenge: challenge, origins: ["https://login.example.com"], rpID: "login.example.com")

    static func run(_ input: [UInt8]) {
        if let (value, consumed) = try? CBORValue.decodePrefix(input, field: "input") {
            require(consumed > 0 && consumed <= input.count, "decodePrefix consumed \(consumed) of \(input.count) bytes")
            let again = value.encoded()
            require(again.count <= consumed, "a CBOR item's preferred encoding is longer than the input")
            require((try? CBORValue.decode(again, field: "again")) == value, "a CBOR item changed through its encoding")
        }
        if let data = try? AuthenticatorData(bytes: input) {
            require((data.attestedCredentialData != nil) == data.flags.contains(.attestedCredentialData), "AT flag and attested data disagree")
            require((data.extensions != nil) == data.flags.contains(.extensionData), "ED flag and extensions disagree")
            require((data.attestedCredentialData?.credentialID.count ?? 0) <= 1023, "a credential id over 1023 bytes")
        }
        if let key = try? COSEKey(bytes: input) {
            let alg = (try? CBORValue.decode(input, field: "input"))?[label: 3]?.int64Value
            require(key.algorithm.rawValue == alg, "a COSE key's algorithm is not its alg parameter")
        }
        if let record = try? RegistrationVerifier.verify(clientDataJSON: clientDataJSON, attestationObject: input, expecting: expectation) {
            require(record.id.count <= 1023, "a registered credential id over 1023 bytes")
            require(["none", "packed"].contains(record.attestationFormat), "an unsupported attestation format accepted")
        }
    }
}
