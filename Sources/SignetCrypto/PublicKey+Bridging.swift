import CLibCrypto
import CSignetShims

extension PublicKey {
    /// Parses a DER `SubjectPublicKeyInfo`. Only RSA (2048–16384 bits), P-256 and Ed25519 keys are
    /// accepted; trailing bytes are rejected; EC points must lie on the curve.
    public convenience init(spkiDER: [UInt8]) throws {
        let pkey: OpaquePointer = try spkiDER.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                throw CryptoError("empty SubjectPublicKeyInfo")
            }
            var cursor: UnsafePointer<UInt8>? = base
            guard let pkey = d2i_PUBKEY(nil, &cursor, buffer.count) else {
                throw OpenSSLError.make("malformed SubjectPublicKeyInfo")
            }
            guard cursor == base + buffer.count else {
                EVP_PKEY_free(pkey)
                throw CryptoError("trailing bytes after SubjectPublicKeyInfo")
            }
            return pkey
        }
        try self.init(owning: pkey, type: KeyClassifier.classifyOrFree(pkey, checkingPublicKey: true))
    }

    /// Builds an RSA public key from its modulus and public exponent (unsigned big-endian, as in a
    /// JWK's `n` and `e`). Leading zero bytes are ignored.
    ///
    /// - Throws: `CryptoError` if the modulus is under 2048 or over 16384 bits, or the exponent is
    ///   even, below 3 or longer than 8 bytes.
    public convenience init(rsaModulus n: [UInt8], exponent e: [UInt8]) throws {
        let modulus = Array(n.drop { $0 == 0 })
        let exponent = Array(e.drop { $0 == 0 })
        let bits = modulus.isEmpty ? 0 : modulus.count * 8 - modulus[0].leadingZeroBitCount
        guard bits >= KeyType.minimumRSABits else { throw CryptoError("RSA modulus below 2048 bits") }
        guard bits <= KeyType.maximumRSABits else { throw CryptoError("RSA modulus above 16384 bits") }
        guard let last = exponent.last, exponent.count <= 8, last & 1 == 1,
              exponent.count > 1 || last >= 3 else {
            throw CryptoError("invalid RSA public exponent")
        }
        // RFC 8017 A.1.1 RSAPublicKey inside an RFC 3279 rsaEncryption SubjectPublicKeyInfo.
        let rsaPublicKey = DER.sequence(DER.unsignedInteger(modulus), DER.unsignedInteger(exponent))
        let algorithm = DER.sequence([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01], [0x05, 0x00])
        try self.init(spkiDER: DER.sequence(algorithm, DER.tlv(0x03, [0x00] + rsaPublicKey)))
    }

    /// Builds a P-256 public key from its affine coordinates (exactly 32 bytes each, as in a JWK's
    /// `x` and `y`).
    ///
    /// - Throws: `CryptoError` for wrong lengths or a point that is not on the curve.
    public convenience init(p256X x: [UInt8], y: [UInt8]) throws {
        guard x.count == 32, y.count == 32 else {
            throw CryptoError("P-256 coordinates must be exactly 32 bytes each")
        }
        // RFC 5480: id-ecPublicKey with namedCurve prime256v1, uncompressed point 04 || x || y.
        let prefix: [UInt8] = [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                               0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04]
        try self.init(spkiDER: prefix + x + y)
    }

    /// Builds an Ed25519 public key from its 32-byte encoding (RFC 8032 §5.1.5, a JWK's `x`).
    public convenience init(ed25519 raw: [UInt8]) throws {
        guard raw.count == 32 else { throw CryptoError("Ed25519 public key must be exactly 32 bytes") }
        // RFC 8410: id-Ed25519 SubjectPublicKeyInfo.
        let prefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]
        try self.init(spkiDER: prefix + raw)
    }

    /// The modulus and public exponent of an RSA key as minimal unsigned big-endian bytes; nil for
    /// other key types.
    public var rsaComponents: (n: [UInt8], e: [UInt8])? {
        guard case .rsa = type,
              let n = bigNumberParameter(OSSL_PKEY_PARAM_RSA_N, paddedTo: nil),
              let e = bigNumberParameter(OSSL_PKEY_PARAM_RSA_E, paddedTo: nil) else { return nil }
        return (n, e)
    }

    /// The affine coordinates of a P-256 key, each left-padded to 32 bytes; nil for other key types.
    public var p256Coordinates: (x: [UInt8], y: [UInt8])? {
        guard type == .p256,
              let x = bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_X, paddedTo: 32),
              let y = bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_Y, paddedTo: 32) else { return nil }
        return (x, y)
    }

    /// The 32-byte encoding of an Ed25519 key; nil for other key types.
    public var ed25519Raw: [UInt8]? {
        guard type == .ed25519 else { return nil }
        var length = 32
        var raw = [UInt8](repeating: 0, count: 32)
        guard EVP_PKEY_get_raw_public_key(pkey, &raw, &length) == 1, length == 32 else {
            OpenSSLError.clear()
            return nil
        }
        return raw
    }

    private func bigNumberParameter(_ name: String, paddedTo width: Int?) -> [UInt8]? {
        var bn: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pkey, name, &bn) == 1, let bn else {
            OpenSSLError.clear()
            return nil
        }
        defer { BN_free(bn) }
        let count = width ?? Int((BN_num_bits(bn) + 7) / 8)
        var out = [UInt8](repeating: 0, count: count)
        let written = if let width { BN_bn2binpad(bn, &out, Int32(width)) } else { BN_bn2bin(bn, &out) }
        guard written == Int32(count) else {
            OpenSSLError.clear()
            return nil
        }
        return out
    }
}

extension PublicKey {
    /// The DER `SubjectPublicKeyInfo` of `pkey` (a public or a private key).
    static func encodeSPKI(_ pkey: OpaquePointer) throws -> [UInt8] {
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pkey, &encoded)
        guard length > 0, let encoded else { throw OpenSSLError.make("cannot encode public key") }
        defer { signet_openssl_free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(length)))
    }
}

/// Sorts an `EVP_PKEY` into the key types Signet accepts.
enum KeyClassifier {
    /// `classify` for a key the caller owns, which is freed when it is refused; with
    /// `checkingPublicKey`, an EC key must also pass `checkPublic`.
    static func classifyOrFree(_ pkey: OpaquePointer, checkingPublicKey: Bool = false) throws -> KeyType {
        do {
            let type = try classify(pkey)
            if checkingPublicKey, type == .p256 { try checkPublic(pkey) }
            return type
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
    }

    static func classify(_ pkey: OpaquePointer) throws -> KeyType {
        if EVP_PKEY_is_a(pkey, "RSA") == 1 {
            let bits = Int(EVP_PKEY_get_bits(pkey))
            guard bits >= KeyType.minimumRSABits else { throw CryptoError("RSA key below 2048 bits") }
            guard bits <= KeyType.maximumRSABits else { throw CryptoError("RSA key above 16384 bits") }
            return .rsa(bits: bits)
        }
        if EVP_PKEY_is_a(pkey, "EC") == 1 {
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_group_name(pkey, &name, name.count, &length) == 1 else {
                throw OpenSSLError.make("EC key without a named curve")
            }
            let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard curve == "prime256v1" || curve == "P-256" else {
                throw CryptoError("unsupported EC curve \(curve)")
            }
            return .p256
        }
        if EVP_PKEY_is_a(pkey, "ED25519") == 1 {
            return .ed25519
        }
        throw CryptoError("unsupported key type")
    }

    /// Runs OpenSSL's public-key validation (for EC: the point is on the curve and not infinity).
    static func checkPublic(_ pkey: OpaquePointer) throws {
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else {
            throw OpenSSLError.make("cannot check public key")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_public_check(ctx) == 1 else {
            throw OpenSSLError.make("invalid public key")
        }
    }
}
