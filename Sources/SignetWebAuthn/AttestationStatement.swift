/// What a verified attestation statement established (W3C WebAuthn §6.5.3, §8).
public enum AttestationStatement: Sendable, Hashable {
    /// Format `none` (§8.7): no statement.
    case none
    /// Format `packed` without `x5c` (§8.2): signed by the credential key itself.
    case packedSelf
    /// Format `packed` with `x5c` (§8.2): signed by the leaf certificate's key, which met §8.2.1.
    /// The chain (leaf first, DER) is not checked against trust anchors: Signet asks for
    /// `attestation: none` and keeps no authenticator metadata, so this is integrity, not trust.
    case packedCertificates([[UInt8]])

    /// The attestation statement format identifier.
    public var format: String {
        switch self {
        case .none: "none"
        case .packedSelf, .packedCertificates: "packed"
        }
    }

    /// The most certificates an `x5c` may hold.
    static let maximumCertificates = 5

    /// Verifies `attStmt` of format `fmt` for `authData` and the client data hash (§7.1 steps 21-22).
    ///
    /// Formats other than `none` and `packed` are refused: Signet requests `attestation: none`,
    /// for which browsers and the platform passkey APIs send `none`; an unverifiable statement
    /// is not recorded as if it had been checked.
    static func verify(format fmt: String, statement: CBORValue, authData: AuthenticatorData,
                       clientDataHash: [UInt8], credentialKey: COSEKey) throws(WebAuthnError) -> AttestationStatement {
        guard let entries = statement.mapValue else { throw .malformed(field: "attestationObject.attStmt", reason: "not a CBOR map") }
        switch fmt {
        case "none":
            // §8.7: attStmt is an empty map.
            guard entries.isEmpty else { throw .invalidAttestation("a \"none\" statement must be empty") }
            return .none
        case "packed":
            return try verifyPacked(statement, authData: authData, clientDataHash: clientDataHash, credentialKey: credentialKey)
        default:
            throw .unsupportedAttestationFormat(fmt)
        }
    }

    /// §8.2.2 verification procedure of the packed format.
    private static func verifyPacked(_ statement: CBORValue, authData: AuthenticatorData, clientDataHash: [UInt8],
                                     credentialKey: COSEKey) throws(WebAuthnError) -> AttestationStatement {
        let field = "attestationObject.attStmt"
        for entry in statement.mapValue ?? [] {
            guard let key = entry.key.textValue, ["alg", "sig", "x5c"].contains(key) else {
                throw .invalidAttestation("unexpected member in a packed statement")
            }
        }
        guard let alg = statement[text: "alg"]?.int64Value else { throw .malformed(field: "\(field).alg", reason: "missing or not an integer") }
        guard let sig = statement[text: "sig"]?.bytesValue else { throw .malformed(field: "\(field).sig", reason: "missing or not bytes") }
        let signed = authData.bytes + clientDataHash
        guard let x5c = statement[text: "x5c"] else {
            // Self attestation: alg is the credential key's, and the credential key signed.
            guard alg == credentialKey.algorithm.rawValue else { throw .invalidAttestation("self attestation alg is not the credential key's") }
            guard credentialKey.verify(signature: sig, message: signed) else { throw .invalidAttestation("self attestation signature does not verify") }
            return .packedSelf
        }
        guard case .array(let items) = x5c, !items.isEmpty, items.count <= maximumCertificates else {
            throw .malformed(field: "\(field).x5c", reason: "not an array of 1 to \(maximumCertificates) certificates")
        }
        var chain: [[UInt8]] = []
        for item in items {
            guard let der = item.bytesValue else { throw .malformed(field: "\(field).x5c", reason: "an element that is not bytes") }
            chain.append(der)
        }
        guard let algorithm = COSEAlgorithm(rawValue: alg) else { throw .unsupportedAlgorithm(alg) }
        let leaf = try AttestationCertificate(der: chain[0])
        guard algorithm.verify(signature: sig, message: signed, key: leaf.publicKey) else {
            throw .invalidAttestation("the signature does not verify with x5c[0]'s key")
        }
        // §8.2.2: an id-fido-gen-ce-aaguid extension must match the AAGUID in authenticatorData.
        if let aaguid = leaf.aaguid, aaguid != authData.attestedCredentialData?.aaguid {
            throw .invalidAttestation("x5c[0]'s AAGUID is not the authenticator's")
        }
        return .packedCertificates(chain)
    }
}
