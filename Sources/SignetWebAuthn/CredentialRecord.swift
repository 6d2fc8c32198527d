/// What a successful registration gives the caller to store (W3C WebAuthn §4 "credential record").
public struct CredentialRecord: Sendable, Hashable {
    /// The credential id (at most 1023 bytes).
    public let id: [UInt8]
    /// The credential public key (its COSE bytes are `publicKey.bytes`).
    public let publicKey: COSEKey
    /// The signature counter at registration.
    public let signCount: UInt32
    /// BE: the credential may be synced (a multi-device passkey); fixed for its lifetime.
    public let backupEligible: Bool
    /// BS: the credential is backed up now; may change.
    public let backupState: Bool
    /// The transports the client reported (`getTransports()`), as given.
    public let transports: [String]
    /// The authenticator's AAGUID (16 bytes).
    public let aaguid: [UInt8]
    /// The verified attestation statement.
    public let attestation: AttestationStatement

    /// The attestation statement format (`none` or `packed`).
    public var attestationFormat: String { attestation.format }
}
