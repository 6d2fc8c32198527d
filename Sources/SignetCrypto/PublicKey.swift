import CLibCrypto

/// An asymmetric public key (RSA >= 2048 bits, P-256 or Ed25519) that verifies signatures.
///
/// Immutable; safe to share across threads (OpenSSL 3 keys support concurrent verification).
public final class PublicKey: @unchecked Sendable {
    /// The owned `EVP_PKEY` and its verification contexts.
    let owned: OwnedKey
    /// The `EVP_PKEY`.
    var pkey: OpaquePointer { owned.pkey }
    /// The kind of key.
    public var type: KeyType { owned.type }
    /// The DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7) encoding of the key.
    public let spkiDER: [UInt8]

    /// Takes ownership of `pkey`, which must already have been classified as `type`.
    init(owning pkey: OpaquePointer, type: KeyType) throws {
        owned = OwnedKey(owning: pkey, type: type, operation: .verify)
        spkiDER = try Self.encodeSPKI(pkey)
    }

    /// Checks `signature` over `message` with `algorithm`.
    ///
    /// Returns false (never throws) for a bad signature, a signature of the wrong length (ES256 must
    /// be exactly 64 bytes `r || s`), or an algorithm that does not fit this key's type.
    public func verify(signature: [UInt8], message: [UInt8], algorithm: SignatureAlgorithm) -> Bool {
        guard let verifier = owned.context(for: algorithm) else { return false }
        switch algorithm {
        case .es256:
            // RFC 7518 §3.4: exactly 64 bytes; anything else is rejected before OpenSSL sees it.
            guard signature.count == 2 * ECDSASignature.scalarSize else { return false }
        case .edDSA:
            guard signature.count == 64 else { return false }
        case .rs256, .ps256:
            guard signature.count == Int(EVP_PKEY_get_size(pkey)) else { return false }
        }
        guard let ctx = verifier.makeContext() else {
            OpenSSLError.clear()
            return false
        }
        defer { EVP_MD_CTX_free(ctx) }
        let result = message.withNonNullBytes { msg, msgLength in
            signature.withUnsafeBufferPointer { sig in
                guard algorithm == .es256 else {
                    return EVP_DigestVerify(ctx, sig.baseAddress, sig.count, msg, msgLength)
                }
                // Convert r||s to DER in a stack buffer: no allocation on the hot path.
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ECDSASignature.maximumDERSize) { der in
                    let length = ECDSASignature.writeDER(jose: sig, into: der)
                    return EVP_DigestVerify(ctx, der.baseAddress, length, msg, msgLength)
                }
            }
        }
        if result != 1 { OpenSSLError.clear() }
        return result == 1
    }
}

extension PublicKey: Equatable, Hashable {
    /// Two public keys are equal when their SubjectPublicKeyInfo encodings are equal.
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.spkiDER == rhs.spkiDER
    }

    /// Hashes the SubjectPublicKeyInfo encoding.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(spkiDER)
    }
}

extension PublicKey: CustomStringConvertible {
    /// The key type only, e.g. `PublicKey(P-256)`.
    public var description: String { "PublicKey(\(type.displayName))" }
}

extension KeyType {
    /// A short name for logs: `RSA-2048`, `P-256`, `Ed25519`.
    public var displayName: String {
        switch self {
        case .rsa(let bits): "RSA-\(bits)"
        case .p256: "P-256"
        case .ed25519: "Ed25519"
        }
    }
}
