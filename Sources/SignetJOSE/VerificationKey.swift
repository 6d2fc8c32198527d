import SignetCrypto

/// A public key that verifies tokens, with its key ID and the ONE algorithm it accepts.
///
/// The algorithm is pinned by the key, never chosen by the token (RFC 8725 §3.1): a token whose
/// `alg` differs is rejected even if the key could technically verify it.
public struct VerificationKey: Sendable {
    /// The key ID tokens must name in their `kid` header.
    public let keyID: String
    /// The only algorithm accepted with this key.
    public let algorithm: SignatureAlgorithm
    /// The public key.
    public let publicKey: PublicKey

    /// Pins `publicKey` to `algorithm` under `keyID`.
    ///
    /// - Throws: `JOSEError.algorithmNotForKey` if the algorithm does not fit the key type.
    public init(keyID: String, algorithm: SignatureAlgorithm, publicKey: PublicKey) throws(JOSEError) {
        guard algorithm.fits(publicKey.type) else { throw .algorithmNotForKey }
        self.keyID = keyID
        self.algorithm = algorithm
        self.publicKey = publicKey
    }
}
