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
    /// The user handle: opaque, at most 64 bytes, never an email (§5.4.3).
    public let userID: [UInt8]
    /// The account name shown in account pickers.
    public let userName: String
    /// The display name.
    public let userDisplayName: String
    /// The user's existing credentials, so an authenticator does not register twice.
    public let excludeCredentials: [CredentialDescriptor]

    /// Options; throws when the user handle or the challenge break §5.4.3 / §13.4.3.
    public init(rpID: String, rpName: String, userID: [UInt8], userName: String, userDisplayName: String,
                challenge: [UInt8], timeoutMilliseconds: Int = 300_000, excludeCredentials: [CredentialDescriptor] = []) throws(WebAuthnError) {
        guard (1...64).contains(userID.count) else { throw .malformed(field: "user.id", reason: "must be 1 to 64 bytes") }
        ceremony = try CeremonyParameters(rpID: rpID, challenge: challenge, timeoutMilliseconds: timeoutMilliseconds)
        self.rpName = rpName
        self.userID = userID
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.excludeCredentials = excludeCredentials
    }

    /// The JSON object.
    public var json: JSONValue {
        .object(ceremony.jsonMembers.merging([
            "rp": ["id": .string(ceremony.rpID), "name": .string(rpName)],
            "user": ["id": .string(Base64URL.encode(userID)), "name": .string(userName), "displayName": .string(userDisplayName)],
            "pubKeyCredParams": .array(COSEAlgorithm.allCases.map { ["type": "public-key", "alg": .int($0.rawValue)] }),
            "excludeCredentials": .array(excludeCredentials.map(\.json)),
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"],
            "attestation": "none",
        ]) { _, own in own })
    }
}
