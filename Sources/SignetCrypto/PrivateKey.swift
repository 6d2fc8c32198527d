import CLibCrypto

/// An asymmetric private key (RSA >= 2048 bits, P-256 or Ed25519) that signs.
///
/// Immutable; safe to share across threads (OpenSSL 3 keys support concurrent signing). Its
/// `description` never shows key material.
public final class PrivateKey: @unchecked Sendable {
    /// The owned `EVP_PKEY` and its signing contexts.
    let owned: OwnedKey
    /// The `EVP_PKEY`.
    var pkey: OpaquePointer { owned.pkey }
    /// The kind of key.
    public var type: KeyType { owned.type }
    /// The matching public key.
    public let publicKey: PublicKey
    /// The unencrypted PKCS #8 `PrivateKeyInfo` DER encoding (RFC 5208), for storage under
    /// encryption (see `AESGCM`). Treat as secret.
    public let pkcs8DER: [UInt8]

    /// Takes ownership of `pkey`, which must already have been classified as `type`.
    init(owning pkey: OpaquePointer, type: KeyType) throws {
        owned = OwnedKey(owning: pkey, type: type, operation: .sign)
        pkcs8DER = try Self.encodePKCS8(pkey)
        publicKey = try PublicKey(spkiDER: PublicKey.encodeSPKI(pkey))
    }

    /// Signs `message` with `algorithm`.
    ///
    /// ES256 returns the 64-byte JOSE `r || s` form; RS256/PS256 a modulus-sized signature; EdDSA
    /// 64 bytes (deterministic).
    ///
    /// - Throws: `CryptoError` if `algorithm` does not fit the key type (ES256 needs P-256,
    ///   RS256/PS256 need RSA, EdDSA needs Ed25519) or OpenSSL fails.
    public func sign(_ message: [UInt8], algorithm: SignatureAlgorithm) throws -> [UInt8] {
        guard let signer = owned.context(for: algorithm) else {
            throw CryptoError("\(algorithm.rawValue) cannot be used with a \(type.displayName) key")
        }
        guard let ctx = signer.makeContext() else { throw OpenSSLError.make("cannot start signature") }
        defer { EVP_MD_CTX_free(ctx) }
        if algorithm == .es256 {
            // Sign into a stack buffer and convert DER -> r||s without an intermediate array.
            var ok = false
            let jose = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ECDSASignature.maximumDERSize) { der in
                var length = der.count
                let signed = message.withNonNullBytes { msg, msgLength in
                    EVP_DigestSign(ctx, der.baseAddress, &length, msg, msgLength)
                }
                return [UInt8](unsafeUninitializedCapacity: 2 * ECDSASignature.scalarSize) { out, count in
                    ok = signed == 1 && length <= der.count
                        && ECDSASignature.parseDER(UnsafeBufferPointer(rebasing: der[0..<length]), into: out)
                    count = 2 * ECDSASignature.scalarSize
                }
            }
            guard ok else { throw OpenSSLError.make("ES256 signing failed") }
            return jose
        }
        var length = Int(EVP_PKEY_get_size(pkey))
        var ok: Int32 = 0
        let signature = [UInt8](unsafeUninitializedCapacity: length) { out, count in
            ok = message.withNonNullBytes { msg, msgLength in
                EVP_DigestSign(ctx, out.baseAddress, &length, msg, msgLength)
            }
            count = ok == 1 && length <= out.count ? length : 0
        }
        guard ok == 1, signature.count == length else { throw OpenSSLError.make("signing failed") }
        return signature
    }
}

extension PrivateKey: CustomStringConvertible {
    /// The key type only; the key material is redacted.
    public var description: String { "PrivateKey(\(type.displayName), <redacted>)" }
}
