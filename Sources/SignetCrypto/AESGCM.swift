import CLibCrypto

/// AES-256-GCM authenticated encryption with a random 96-bit nonce, used to keep signing keys and
/// other secrets encrypted at rest under a master key.
///
/// Sealed format: `nonce (12 bytes) || ciphertext || tag (16 bytes)`. With random nonces, one key
/// should seal fewer than 2^32 messages (NIST SP 800-38D §8.3).
public enum AESGCM {
    /// Key size in bytes (AES-256).
    public static let keySize = 32
    /// Nonce size in bytes.
    public static let nonceSize = 12
    /// Authentication tag size in bytes.
    public static let tagSize = 16

    /// Encrypts and authenticates `plaintext`, and authenticates `associatedData`.
    ///
    /// - Throws: `CryptoError` if the key is not 32 bytes or OpenSSL fails.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        try seal(plaintext, key: key, nonce: SecureRandom.bytes(nonceSize), associatedData: associatedData)
    }

    /// Decrypts a value produced by `seal` after checking its tag.
    ///
    /// - Throws: `CryptoError` if the key is not 32 bytes, the input is too short, or
    ///   authentication fails (wrong key, wrong associated data, or any modified byte).
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        guard key.count == keySize else { throw CryptoError("AES-GCM key must be 32 bytes") }
        guard sealed.count >= nonceSize + tagSize else { throw CryptoError("sealed value too short") }
        let nonce = Array(sealed[0..<nonceSize])
        let ciphertext = Array(sealed[nonceSize..<(sealed.count - tagSize)])
        var tag = Array(sealed[(sealed.count - tagSize)...])
        guard ciphertext.count < Int(Int32.max), associatedData.count < Int(Int32.max) else {
            throw CryptoError("sealed value too large")
        }
        let ctx = try context(encrypting: false, key: key, nonce: nonce, associatedData: associatedData)
        defer { EVP_CIPHER_CTX_free(ctx) }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written: Int32 = 0
        if !ciphertext.isEmpty {
            guard EVP_DecryptUpdate(ctx, &plaintext, &written, ciphertext, Int32(ciphertext.count)) == 1 else {
                throw OpenSSLError.make("decryption failed")
            }
        }
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagSize), &tag) == 1 else {
            throw OpenSSLError.make("cannot set tag")
        }
        var finalLength: Int32 = 0
        let finished = plaintext.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(ctx, buffer.baseAddress.map { $0 + Int(written) }, &finalLength)
        }
        guard finished == 1 else {
            OpenSSLError.clear()
            throw CryptoError("authentication failed")
        }
        plaintext.removeLast(plaintext.count - Int(written + finalLength))
        return plaintext
    }

    /// `seal` with a caller-chosen nonce; internal so tests can check known-answer vectors.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        guard key.count == keySize else { throw CryptoError("AES-GCM key must be 32 bytes") }
        guard nonce.count == nonceSize else { throw CryptoError("AES-GCM nonce must be 12 bytes") }
        guard plaintext.count < Int(Int32.max) - 64, associatedData.count < Int(Int32.max) else {
            throw CryptoError("plaintext too large")
        }
        let ctx = try context(encrypting: true, key: key, nonce: nonce, associatedData: associatedData)
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = nonce + [UInt8](repeating: 0, count: plaintext.count + 16 + tagSize)
        var written: Int32 = 0
        var finalLength: Int32 = 0
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            let body = base + nonceSize
            if !plaintext.isEmpty {
                guard EVP_EncryptUpdate(ctx, body, &written, plaintext, Int32(plaintext.count)) == 1 else { return false }
            }
            guard EVP_EncryptFinal_ex(ctx, body + Int(written), &finalLength) == 1 else { return false }
            let tag = body + Int(written + finalLength)
            return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(tagSize), tag) == 1
        }
        guard ok else { throw OpenSSLError.make("encryption failed") }
        out.removeLast(out.count - (nonceSize + Int(written + finalLength) + tagSize))
        return out
    }

    /// An AES-256-GCM context under `key` and `nonce`, encrypting or decrypting, that has already
    /// authenticated `associatedData`; the caller frees it.
    private static func context(encrypting: Bool, key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) throws -> OpaquePointer {
        let direction = encrypting ? "encryption" : "decryption"
        guard let ctx = EVP_CIPHER_CTX_new() else { throw OpenSSLError.make("cannot create cipher context") }
        guard EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), nil, key, nonce, encrypting ? 1 : 0) == 1 else {
            EVP_CIPHER_CTX_free(ctx)
            throw OpenSSLError.make("cannot start \(direction)")
        }
        var length: Int32 = 0
        if !associatedData.isEmpty {
            guard EVP_CipherUpdate(ctx, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                EVP_CIPHER_CTX_free(ctx)
                throw OpenSSLError.make("\(direction) failed")
            }
        }
        return ctx
    }
}
