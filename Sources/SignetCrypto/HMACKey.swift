import CLibCrypto

/// An HMAC-SHA-256 key (RFC 2104) prepared once for any number of messages.
///
/// `HMAC.sha256(key:message:)` (OpenSSL's one-shot `HMAC()`) fetches the HMAC implementation,
/// builds a MAC context and hashes the padded key on every call: about 2 µs, most of it set-up.
/// Here the two padded key blocks are hashed once, into an inner and an outer SHA-256 state kept
/// as template contexts that are never used themselves; each message copies them
/// (`EVP_MD_CTX_copy_ex`, which only reads the template, so one key serves any number of threads)
/// and hashes just the message and the inner digest: about 0.3 µs. Should a copy ever fail, the
/// one-shot function computes the same value.
public final class HMACKey: @unchecked Sendable {
    private let key: [UInt8]
    /// SHA-256 after `key ^ ipad` and after `key ^ opad`; immutable after init. Nil if either failed.
    private let inner: OpaquePointer?
    private let outer: OpaquePointer?

    /// Prepares `key` for HMAC-SHA-256.
    public init(sha256 key: [UInt8]) {
        self.key = key
        let blockSize = DigestAlgorithm.sha256.blockSize
        var block = key.count > blockSize ? Digest.sha256(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        let inner = Self.template(block.map { $0 ^ 0x36 })
        let outer = Self.template(block.map { $0 ^ 0x5c })
        if let inner, let outer {
            self.inner = inner
            self.outer = outer
        } else {
            EVP_MD_CTX_free(inner)
            EVP_MD_CTX_free(outer)
            OpenSSLError.clear()
            self.inner = nil
            self.outer = nil
        }
    }

    deinit {
        EVP_MD_CTX_free(inner)
        EVP_MD_CTX_free(outer)
    }

    /// HMAC-SHA-256 of `message` under the key (32 bytes); equal to `HMAC.sha256(key:message:)`.
    public func mac(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { mac($0) }
    }

    /// HMAC-SHA-256 of the UTF-8 bytes of `message`.
    public func mac(_ message: String) -> [UInt8] {
        var text = message
        return text.withUTF8 { mac(UnsafeRawBufferPointer($0)) }
    }

    private func mac(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        if let inner, let outer, let ctx = EVP_MD_CTX_new() {
            defer { EVP_MD_CTX_free(ctx) }
            var innerDigest = [UInt8](repeating: 0, count: 32)
            var result = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            let ok = EVP_MD_CTX_copy_ex(ctx, inner) == 1
                && EVP_DigestUpdate(ctx, message.baseAddress, message.count) == 1
                && EVP_DigestFinal_ex(ctx, &innerDigest, &length) == 1 && length == 32
                && EVP_MD_CTX_copy_ex(ctx, outer) == 1
                && EVP_DigestUpdate(ctx, innerDigest, 32) == 1
                && EVP_DigestFinal_ex(ctx, &result, &length) == 1 && length == 32
            if ok { return result }
            OpenSSLError.clear()
        }
        return HMAC.sha256(key: key, message: Array(message))
    }

    /// A SHA-256 context that has hashed `block`, or nil.
    private static func template(_ block: [UInt8]) -> OpaquePointer? {
        guard let ctx = EVP_MD_CTX_new() else { return nil }
        if EVP_DigestInit_ex(ctx, DigestAlgorithm.sha256.md, nil) == 1, EVP_DigestUpdate(ctx, block, block.count) == 1 {
            return ctx
        }
        EVP_MD_CTX_free(ctx)
        return nil
    }
}
