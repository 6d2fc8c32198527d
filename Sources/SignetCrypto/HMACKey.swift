import CLibCrypto
import CSignetShims

/// An HMAC-SHA-256 key (RFC 2104) prepared once for any number of messages.
///
/// `HMAC.sha256(key:message:)` (OpenSSL's one-shot `HMAC()`) fetches the HMAC implementation,
/// builds a MAC context and hashes the padded key on every call: about 2 µs, most of it set-up.
/// Here the two padded key blocks are hashed once, into an inner and an outer SHA-256 state
/// (`signet_hmac_sha256_prepare`, OpenSSL's `SHA256_CTX`); each message copies them onto the
/// stack and hashes just the message and the inner digest (`signet_hmac_sha256`). Nothing is
/// allocated per message but the 32-byte result: the earlier EVP version copied template
/// `EVP_MD_CTX`s, which allocates the provider's state at each copy (four to five allocations a
/// call, 15 per refresh rotation; bench/README.md, "Session 19 (allocations)"). The states are
/// only read after `init`, so one key serves any number of threads. Should preparing ever fail,
/// the one-shot function computes the same value.
public final class HMACKey: @unchecked Sendable {
    private let key: [UInt8]
    /// The prepared states; immutable after init. Nil if preparing failed.
    private let prepared: UnsafeMutablePointer<signet_hmac_sha256_key>?

    /// Prepares `key` for HMAC-SHA-256.
    public init(sha256 key: [UInt8]) {
        self.key = key
        let prepared = UnsafeMutablePointer<signet_hmac_sha256_key>.allocate(capacity: 1)
        if signet_hmac_sha256_prepare(prepared, key, key.count) == 1 {
            self.prepared = prepared
        } else {
            prepared.deallocate()
            self.prepared = nil
        }
    }

    deinit {
        guard let prepared else { return }
        OPENSSL_cleanse(prepared, MemoryLayout<signet_hmac_sha256_key>.size)
        prepared.deallocate()
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
        guard let prepared else { return HMAC.sha256(key: key, message: Array(message)) }
        return [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            signet_hmac_sha256(prepared, message.baseAddress, message.count, buffer.baseAddress)
            count = 32
        }
    }
}
