import SignetCrypto

/// The COSE algorithms Signet accepts for passkeys (IANA COSE Algorithms registry), in the order
/// they are offered in `pubKeyCredParams`.
public enum COSEAlgorithm: Int64, Sendable, CaseIterable {
    /// ECDSA on P-256 with SHA-256; WebAuthn signatures are ASN.1 DER (§6.5.6).
    case es256 = -7
    /// EdDSA with Ed25519 (RFC 8032).
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256, keys of at least 2048 bits.
    case rs256 = -257

    /// The matching SignetCrypto algorithm.
    var signatureAlgorithm: SignatureAlgorithm {
        switch self {
        case .es256: .es256
        case .edDSA: .edDSA
        case .rs256: .rs256
        }
    }

    /// Checks a WebAuthn signature (§6.5.6: ES256 as DER, RS256 PKCS#1 v1.5, Ed25519 raw) over
    /// `message` with `key`; false for any malformed or wrong signature.
    func verify(signature: [UInt8], message: [UInt8], key: PublicKey) -> Bool {
        guard signatureAlgorithm.fits(key.type) else { return false }
        switch self {
        case .es256:
            guard let raw = try? ECDSASignature.derToJOSE(signature) else { return false }
            return key.verify(signature: raw, message: message, algorithm: .es256)
        case .edDSA, .rs256:
            return key.verify(signature: signature, message: message, algorithm: signatureAlgorithm)
        }
    }
}
