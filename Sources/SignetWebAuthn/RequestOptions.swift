import SignetCrypto
import SignetJOSE

/// `PublicKeyCredentialRequestOptionsJSON` (W3C WebAuthn §5.1.2, the input of
/// `PublicKeyCredential.parseRequestOptionsFromJSON`), user verification required. An empty
/// `allowCredentials` asks for a discoverable credential (sign-in without a user name).
public struct RequestOptions: Sendable, Hashable {
    /// The RP ID.
    public let rpID: String
    /// The challenge (at least 16 random bytes, issued and stored by the caller).
    public let challenge: [UInt8]
    /// The ceremony's timeout in milliseconds.
    public let timeoutMilliseconds: Int
    /// The credentials that may answer; empty for a discoverable credential.
    public let allowCredentials: [CredentialDescriptor]

    /// Options; throws for a challenge shorter than 16 bytes (§13.4.3).
    public init(rpID: String, challenge: [UInt8], timeoutMilliseconds: Int = 300_000,
                allowCredentials: [CredentialDescriptor] = []) throws(WebAuthnError) {
        guard challenge.count >= 16 else { throw .malformed(field: "challenge", reason: "must be at least 16 bytes") }
        self.rpID = rpID
        self.challenge = challenge
        self.timeoutMilliseconds = timeoutMilliseconds
        self.allowCredentials = allowCredentials
    }

    /// The JSON object.
    public var json: JSONValue {
        .object([
            "challenge": .string(Base64URL.encode(challenge)),
            "timeout": .int(Int64(timeoutMilliseconds)),
            "rpId": .string(rpID),
            "allowCredentials": .array(allowCredentials.map(\.json)),
            "userVerification": "required",
        ])
    }
}
