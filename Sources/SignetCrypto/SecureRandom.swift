import CLibCrypto

/// Cryptographically secure random bytes for keys, tokens, salts and nonces.
public enum SecureRandom {
    /// Returns `count` random bytes (an empty array for `count <= 0`).
    ///
    /// The source is OpenSSL's `RAND_bytes`. If it fails three times in a row (it practically never
    /// does once seeded) the bytes come from `SystemRandomNumberGenerator` instead, which reads the
    /// kernel's CSPRNG (`getrandom`). This keeps the function total: it never traps and never returns
    /// weak bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        for _ in 0..<3 {
            let ok = out.withUnsafeMutableBytes { buffer in
                RAND_bytes(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(clamping: count)) == 1
            }
            if ok && count <= Int(Int32.max) { return out }
            ERR_clear_error()
        }
        var generator = SystemRandomNumberGenerator()
        for index in out.indices { out[index] = generator.next() }
        return out
    }
}
