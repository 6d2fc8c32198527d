import SignetCrypto

/// The source of random bytes for token material. Core never calls a random source directly.
public protocol RandomSource: Sendable {
    /// `count` unpredictable bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// OpenSSL's CSPRNG.
public struct SystemRandomSource: RandomSource {
    /// Creates the source.
    public init() {}
    /// `RAND_bytes`.
    public func bytes(_ count: Int) -> [UInt8] { SecureRandom.bytes(count) }
}

extension RandomSource {
    /// A new random identifier (grant ids, user ids): 128 bits, base64url.
    public func identifier() -> String { Base64URL.encode(bytes(16)) }
}
