import CLibCrypto
import CSignetShims

extension PrivateKey {
    /// Generates a new key.
    ///
    /// - Throws: `CryptoError` for RSA sizes under 2048 or over 16384 bits, or if OpenSSL fails.
    ///   RSA generation is slow (hundreds of milliseconds): do it at start-up or rotation only.
    public static func generate(_ type: KeyType) throws -> PrivateKey {
        let name: String
        switch type {
        case .rsa(let bits):
            guard bits >= KeyType.minimumRSABits else { throw CryptoError("RSA keys must be at least 2048 bits") }
            guard bits <= KeyType.maximumRSABits else { throw CryptoError("RSA keys must be at most 16384 bits") }
            name = "RSA"
        case .p256: name = "EC"
        case .ed25519: name = "ED25519"
        }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, name, nil) else {
            throw OpenSSLError.make("cannot create key generation context")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_keygen_init(ctx) == 1 else { throw OpenSSLError.make("cannot start key generation") }
        switch type {
        case .rsa(let bits):
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)) == 1 else {
                throw OpenSSLError.make("cannot set RSA key size")
            }
        case .p256:
            guard EVP_PKEY_CTX_set_group_name(ctx, "P-256") == 1 else {
                throw OpenSSLError.make("cannot select P-256")
            }
        case .ed25519:
            break
        }
        var pkey: OpaquePointer?
        guard EVP_PKEY_generate(ctx, &pkey) == 1, let pkey else { throw OpenSSLError.make("key generation failed") }
        return try PrivateKey(owning: pkey, type: KeyClassifier.classifyOrFree(pkey))
    }

    /// Parses an unencrypted PKCS #8 `PrivateKeyInfo` (DER). Only RSA (2048–16384 bits), P-256 and
    /// Ed25519 keys are accepted; trailing bytes are rejected.
    public convenience init(pkcs8DER der: [UInt8]) throws {
        let pkey: OpaquePointer = try der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { throw CryptoError("empty PKCS #8 key") }
            var cursor: UnsafePointer<UInt8>? = base
            guard let info = d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, buffer.count) else {
                throw OpenSSLError.make("malformed PKCS #8 key")
            }
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            guard cursor == base + buffer.count else { throw CryptoError("trailing bytes after PKCS #8 key") }
            guard let pkey = EVP_PKCS82PKEY(info) else { throw OpenSSLError.make("unusable PKCS #8 key") }
            return pkey
        }
        try self.init(owning: pkey, type: KeyClassifier.classifyOrFree(pkey))
    }

    static func encodePKCS8(_ pkey: OpaquePointer) throws -> [UInt8] {
        guard let info = EVP_PKEY2PKCS8(pkey) else { throw OpenSSLError.make("cannot export private key") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = i2d_PKCS8_PRIV_KEY_INFO(info, &encoded)
        guard length > 0, let encoded else { throw OpenSSLError.make("cannot encode private key") }
        defer {
            OPENSSL_cleanse(encoded, Int(length))
            signet_openssl_free(encoded)
        }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(length)))
    }
}
