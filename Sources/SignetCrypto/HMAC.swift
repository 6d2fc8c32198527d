import CLibCrypto

/// One-shot HMAC (RFC 2104) with SHA-2, and with SHA-1 for TOTP (RFC 6238), whose
/// authenticator apps mostly know no other.
public enum HMAC {
    /// HMAC-SHA-1 of `message` under `key` (20 bytes). Only for one-time passwords (RFC 4226 /
    /// RFC 6238), where HMAC-SHA-1 is still sound; never for signatures or token hashes.
    public static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        mac(.sha1, key: key, message: message)
    }

    /// HMAC-SHA-256 of `message` under `key` (32 bytes).
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        mac(.sha256, key: key, message: message)
    }

    /// HMAC-SHA-384 of `message` under `key` (48 bytes).
    public static func sha384(key: [UInt8], message: [UInt8]) -> [UInt8] {
        mac(.sha384, key: key, message: message)
    }

    /// HMAC-SHA-512 of `message` under `key` (64 bytes).
    public static func sha512(key: [UInt8], message: [UInt8]) -> [UInt8] {
        mac(.sha512, key: key, message: message)
    }

    private static func mac(_ algorithm: DigestAlgorithm, key: [UInt8], message: [UInt8]) -> [UInt8] {
        let size = algorithm.size
        var outLength: UInt32 = 0
        let result = [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            let ok = key.withUnsafeBytes { k in
                message.withUnsafeBytes { m in
                    CLibCrypto.HMAC(algorithm.md, k.baseAddress, Int32(clamping: k.count),
                                    m.baseAddress?.assumingMemoryBound(to: UInt8.self), m.count,
                                    out.baseAddress, &outLength) != nil
                }
            }
            initialized = ok && Int(outLength) == size ? size : 0
        }
        if result.count == size { return result }
        // HMAC() fails only on allocation failure or absurd key lengths; the textbook construction
        // over Digest gives the same value, so the function stays total.
        OpenSSLError.clear()
        return construct(algorithm, key: key, message: message)
    }

    /// RFC 2104 §2: H(K ^ opad, H(K ^ ipad, text)).
    private static func construct(_ algorithm: DigestAlgorithm, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > algorithm.blockSize ? key.withUnsafeBytes { algorithm.hash($0) } : key
        block += [UInt8](repeating: 0, count: algorithm.blockSize - block.count)
        let inner = block.map { $0 ^ 0x36 } + message
        let outer = block.map { $0 ^ 0x5c } + inner.withUnsafeBytes { algorithm.hash($0) }
        return outer.withUnsafeBytes { algorithm.hash($0) }
    }
}
