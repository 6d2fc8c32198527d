import CLibCrypto

/// One-shot SHA-2 digests.
public enum Digest {
    /// SHA-256 of `bytes` (32 bytes).
    public static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        hash(bytes, .sha256)
    }

    /// Lowercase hex of the SHA-256 of the UTF-8 of `text` (Sign in with Apple's nonce form).
    public static func sha256Hex(_ text: String) -> String {
        Hex.encode(sha256(Array(text.utf8)))
    }

    /// SHA-384 of `bytes` (48 bytes).
    public static func sha384(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        hash(bytes, .sha384)
    }

    /// SHA-512 of `bytes` (64 bytes).
    public static func sha512(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        hash(bytes, .sha512)
    }

    private static func hash(_ bytes: some Sequence<UInt8>, _ algorithm: DigestAlgorithm) -> [UInt8] {
        // Fast path: arrays, slices and native UTF-8 strings hash in place without a copy.
        if let digest = bytes.withContiguousStorageIfAvailable({ algorithm.hash(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { algorithm.hash($0) }
    }
}

/// The SHA-2 variants used inside SignetCrypto.
enum DigestAlgorithm: Sendable {
    case sha1, sha256, sha384, sha512

    /// Output size in bytes.
    var size: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// HMAC block size in bytes.
    var blockSize: Int {
        switch self {
        case .sha1, .sha256: 64
        case .sha384, .sha512: 128
        }
    }

    /// The fetched OpenSSL digest.
    var md: OpaquePointer {
        switch self {
        case .sha1: FetchedAlgorithms.shared.sha1
        case .sha256: FetchedAlgorithms.shared.sha256
        case .sha384: FetchedAlgorithms.shared.sha384
        case .sha512: FetchedAlgorithms.shared.sha512
        }
    }

    /// Hashes `data` with `EVP_Digest`. Should that fail (it can only on allocation failure), the
    /// low-level one-shot functions, which cannot fail, compute the same value: the result is total.
    func hash(_ data: UnsafeRawBufferPointer) -> [UInt8] {
        let size = self.size
        let md = self.md
        return [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            let input = data.baseAddress
            let ok = EVP_Digest(input, data.count, out.baseAddress, nil, md, nil) == 1
            if !ok {
                ERR_clear_error()
                let bytes = input?.assumingMemoryBound(to: UInt8.self)
                switch self {
                case .sha1: _ = SHA1(bytes, data.count, out.baseAddress)
                case .sha256: _ = SHA256(bytes, data.count, out.baseAddress)
                case .sha384: _ = SHA384(bytes, data.count, out.baseAddress)
                case .sha512: _ = SHA512(bytes, data.count, out.baseAddress)
                }
            }
            initialized = size
        }
    }
}
