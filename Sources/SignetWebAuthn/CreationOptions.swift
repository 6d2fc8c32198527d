import SignetCrypto
import SignetJOSE

/// `PublicKeyCredentialCreationOptionsJSON` (W3C WebAuthn §5.1.1, the input of
/// `PublicKeyCredential.parseCreationOptionsFromJSON`) with Signet's fixed policy: a discoverable
/// credential (`residentKey: required`), user verification required, `attestation: none`, and
/// the algorithms ES256, EdDSA and RS256.
public struct CreationOptions: Sendable, Hashable {
    /// The RP ID, the challenge and the timeout.
    public let ceremony: CeremonyParameters
    /// The RP's name, shown by some authenticators.
    public let rpName: String
    /// The account the credential is for.
    public let user: UserEntity
    /// The user's existing credentials, so an authenticator does not register twice.
    public let excludeCredentials: [CredentialDescriptor]

    /// Options; throws when the challenge breaks §13.4.3.
    public init(rpID: String, rpName: String, user: UserEntity, challenge: [UInt8], timeoutMilliseconds: Int = 300_000,
                excludeCredentials: [CredentialDescriptor] = []) throws(WebAuthnError) {
        ceremony = try CeremonyParameters(rpID: rpID, challenge: challenge, timeoutMilliseconds: timeoutMilliseconds)
        self.rpName = rpName
        self.user = user
        self.excludeCredentials = excludeCredentials
    }

    /// The JSON object.
    public var json: JSONValue {
        .object(ceremony.jsonMembers.merging([
            "rp": ["id": .string(ceremony.rpID), "name": .string(rpName)],
            "user": user.json,
            "pubKeyCredParams": .array(COSEAlgorithm.allCases.map { ["type": "public-key", "alg": .int($0.rawValue)] }),
            "excludeCredentials": .array(excludeCredentials.map(\.json)),
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"],
            "attestation": "none",
        ]) { _, own in own })
    }
}
