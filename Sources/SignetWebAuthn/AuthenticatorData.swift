/// Authenticator data (W3C WebAuthn §6.1), parsed: every byte accounted for.
public struct AuthenticatorData: Sendable, Hashable {
    /// The flags byte (§6.1 table).
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The raw byte.
        public let rawValue: UInt8
        /// A flags byte.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// UP, bit 0: the user is present.
        public static let userPresent = Flags(rawValue: 1 << 0)
        /// UV, bit 2: the user is verified.
        public static let userVerified = Flags(rawValue: 1 << 2)
        /// BE, bit 3: the credential may be backed up (a multi-device credential).
        public static let backupEligible = Flags(rawValue: 1 << 3)
        /// BS, bit 4: the credential is backed up now.
        public static let backupState = Flags(rawValue: 1 << 4)
        /// AT, bit 6: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 1 << 6)
        /// ED, bit 7: extension data follows.
        public static let extensionData = Flags(rawValue: 1 << 7)
    }

    /// Attested credential data (§6.5.2).
    public struct AttestedCredentialData: Sendable, Hashable {
        /// The authenticator's AAGUID (16 bytes; zero when the client stripped it).
        public let aaguid: [UInt8]
        /// The credential id.
        public let credentialID: [UInt8]
        /// The credential public key.
        public let publicKey: COSEKey
    }

    /// The largest authenticator data accepted (an RSA-4096 key and extensions fit easily).
    public static let maximumLength = 8192
    /// The longest credential id accepted (§7.1 step 25: at most 1023 bytes).
    public static let maximumCredentialIDLength = 1023

    /// The bytes as received (signatures cover them).
    public let bytes: [UInt8]
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    public let rpIDHash: [UInt8]
    /// The flags.
    public let flags: Flags
    /// The signature counter (0 when the authenticator keeps none).
    public let signCount: UInt32
    /// Present when the AT flag is set.
    public let attestedCredentialData: AttestedCredentialData?
    /// The extension outputs when the ED flag is set (a CBOR map).
    public let extensions: CBORValue?

    /// Parses `bytes`; `field` names them in errors.
    public init(bytes: [UInt8], field: String = "authenticatorData") throws(WebAuthnError) {
        guard bytes.count <= Self.maximumLength else { throw .tooLarge(field: field, limit: Self.maximumLength) }
        guard bytes.count >= 37 else { throw .malformed(field: field, reason: "shorter than 37 bytes") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .malformed(field: field, reason: "attested credential data truncated") }
            let aaguid = Array(bytes[offset..<(offset + 16)])
            let idLength = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard idLength <= Self.maximumCredentialIDLength else { throw .credentialIDTooLong(idLength) }
            guard idLength > 0 else { throw .malformed(field: field, reason: "empty credential id") }
            guard bytes.count >= offset + idLength else { throw .malformed(field: field, reason: "credential id truncated") }
            let credentialID = Array(bytes[offset..<(offset + idLength)])
            offset += idLength
            let rest = Array(bytes[offset...])
            let (value, length) = try CBORValue.decodePrefix(rest, field: "\(field).credentialPublicKey")
            let key = try COSEKey(value: value, bytes: Array(rest[0..<length]))
            offset += length
            attestedCredentialData = AttestedCredentialData(aaguid: aaguid, credentialID: credentialID, publicKey: key)
        } else {
            attestedCredentialData = nil
        }
        if flags.contains(.extensionData) {
            let rest = Array(bytes[offset...])
            let (value, length) = try CBORValue.decodePrefix(rest, field: "\(field).extensions")
            guard value.mapValue != nil else { throw .malformed(field: "\(field).extensions", reason: "not a CBOR map") }
            offset += length
            extensions = value
        } else {
            extensions = nil
        }
        // §6.1: nothing follows the attested credential data and the extensions.
        guard offset == bytes.count else { throw .malformed(field: field, reason: "\(bytes.count - offset) bytes after the last field") }
        // §6.1.3: BS may be set only on a backup-eligible credential.
        guard flags.contains(.backupEligible) || !flags.contains(.backupState) else { throw .invalidBackupFlags }
    }
}
