/// The kind of an asymmetric key.
public enum KeyType: Sendable, Equatable, Hashable {
    /// An RSA key with a modulus of `bits` bits (at least 2048).
    case rsa(bits: Int)
    /// An ECDSA key on NIST P-256 (secp256r1).
    case p256
    /// An Ed25519 key.
    case ed25519

    /// The smallest RSA modulus Signet generates or accepts.
    public static let minimumRSABits = 2048
    /// The largest RSA modulus Signet accepts (bounds verification cost for untrusted keys).
    public static let maximumRSABits = 16384
}
