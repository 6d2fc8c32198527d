import SignetCrypto
import SignetJOSE

/// `PublicKeyCredentialRequestOptionsJSON` (W3C WebAuthn §5.1.2, the input of
/// `PublicKeyCredential.parseRequestOptionsFromJSON`), user verification required. An empty
/// `allowCredentials` asks for a discoverable credential (sign-in without a user name).
public struct RequestOptions: Sendable, Hashable {
    /// The RP ID, the challenge and the timeout.
    public let ceremony: CeremonyParameters
    /// The credentials that may answer; empty for a discoverable credential.
    public let allowCredentials: [CredentialDescriptor]

    /// Options; throws for a challenge shorter than 16 bytes (§13.4.3).
    public init(rpID: String, challenge: [UInt8], timeoutMilliseconds: Int = 300_000,
                allowCredentials: [CredentialDescriptor] = []) throws(WebAuthnError) {
        ceremony = try CeremonyParameters(rpID: rpID, challenge: challenge, timeoutMilliseconds: timeoutMilliseconds)
        self.allowCredentials = allowCredentials
    }

    /// The JSON object.
    public var json: JSONValue {
        .object(ceremony.jsonMembers.merging([
            "rpId": .string(ceremony.rpID),
            "allowCredentials": .array(allowCredentials.map(\.json)),
            "userVerification": "required",
        ]) { _, own in own })
    }
}
