/// Why a WebAuthn ceremony, a response or an authenticator structure was refused.
///
/// The text says what failed and, for input, which field; it never contains the challenge, a
/// signature or key material, so it may be logged.
public enum WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An input field is not what its format requires (`field` names it, e.g. `response.clientDataJSON`).
    case malformed(field: String, reason: String)
    /// An input field is longer than its limit.
    case tooLarge(field: String, limit: Int)
    /// `clientData.type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
    case wrongCeremonyType(expected: String)
    /// `clientData.challenge` is not the challenge this ceremony issued.
    case challengeMismatch
    /// `clientData.origin` is not one of the expected origins.
    case originNotAllowed(String)
    /// The ceremony ran in a cross-origin iframe (`crossOrigin` true or a `topOrigin`).
    case crossOriginRefused
    /// `rpIdHash` is not SHA-256 of the RP ID.
    case rpIDMismatch
    /// The UP flag is not set.
    case userNotPresent
    /// The UV flag is not set (user verification is required).
    case userNotVerified
    /// BS is set while BE is not (§6.1.3: an invalid combination).
    case invalidBackupFlags
    /// Registration without attested credential data (AT flag clear or the data missing).
    case missingAttestedCredentialData
    /// The credential id is longer than 1023 bytes (§7.1 step 25).
    case credentialIDTooLong(Int)
    /// A COSE algorithm other than ES256 (-7), EdDSA (-8) and RS256 (-257).
    case unsupportedAlgorithm(Int64)
    /// The COSE key's parameters do not form a valid key of its algorithm.
    case invalidPublicKey(String)
    /// An attestation statement format other than `none` and `packed`.
    case unsupportedAttestationFormat(String)
    /// A `none` or `packed` attestation statement that does not verify.
    case invalidAttestation(String)
    /// The assertion signature does not verify with the credential's public key.
    case badSignature
    /// The BE flag differs from the one stored with the credential (§7.2 step 19).
    case backupEligibilityChanged
    /// The response names another credential or another user than the one given.
    case credentialMismatch(String)

    /// One line for logs.
    public var description: String {
        switch self {
        case .malformed(let field, let reason): "WebAuthn: \(field) is malformed: \(reason)"
        case .tooLarge(let field, let limit): "WebAuthn: \(field) is longer than \(limit) bytes"
        case .wrongCeremonyType(let expected): "WebAuthn: clientDataJSON.type is not \(expected)"
        case .challengeMismatch: "WebAuthn: clientDataJSON.challenge is not this ceremony's challenge"
        case .originNotAllowed(let origin): "WebAuthn: origin \(Self.quoted(origin)) is not allowed"
        case .crossOriginRefused: "WebAuthn: cross-origin ceremonies are refused"
        case .rpIDMismatch: "WebAuthn: authenticatorData.rpIdHash is not SHA-256 of the RP ID"
        case .userNotPresent: "WebAuthn: the user-present (UP) flag is not set"
        case .userNotVerified: "WebAuthn: the user-verified (UV) flag is not set"
        case .invalidBackupFlags: "WebAuthn: backup state (BS) is set without backup eligibility (BE)"
        case .missingAttestedCredentialData: "WebAuthn: authenticatorData has no attested credential data"
        case .credentialIDTooLong(let length): "WebAuthn: the credential id is \(length) bytes (at most 1023)"
        case .unsupportedAlgorithm(let alg): "WebAuthn: COSE algorithm \(alg) is not supported (ES256, EdDSA, RS256)"
        case .invalidPublicKey(let reason): "WebAuthn: invalid COSE public key: \(reason)"
        case .unsupportedAttestationFormat(let fmt): "WebAuthn: attestation format \(Self.quoted(fmt)) is not supported (none, packed)"
        case .invalidAttestation(let reason): "WebAuthn: invalid attestation statement: \(reason)"
        case .badSignature: "WebAuthn: the assertion signature does not verify"
        case .backupEligibilityChanged: "WebAuthn: the backup-eligible (BE) flag changed since registration"
        case .credentialMismatch(let reason): "WebAuthn: \(reason)"
        }
    }

    /// Text the client chose, quoted with control characters escaped and cut to 100 characters,
    /// so it cannot start a new log line.
    static func quoted(_ text: String) -> String {
        String(reflecting: String(text.prefix(100)))
    }
}
