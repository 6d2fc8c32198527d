import CLibCrypto

/// Compares two byte strings without revealing, through timing, where they differ.
///
/// Arrays of different lengths compare unequal immediately; the length itself is not secret.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { pa in
        b.withUnsafeBytes { pb in
            CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, a.count) == 0
        }
    }
}
