import SignetCrypto

/// A JWS whose signature has been checked, and nothing else yet.
public struct VerifiedJWS: Sendable {
    /// The protected header.
    public let header: [String: JSONValue]
    /// The payload bytes.
    public let payload: [UInt8]
    /// The key that verified the signature.
    public let keyID: String
    /// The algorithm that verified the signature (the key's pinned algorithm).
    public let algorithm: SignatureAlgorithm
}

/// A JWT whose signature, header and claims all passed a `JWTVerifier`'s policy.
public struct VerifiedJWT: Sendable {
    /// The protected header.
    public let header: [String: JSONValue]
    /// The claims.
    public let claims: JWTClaims
    /// The key that verified the signature.
    public let keyID: String
    /// The algorithm that verified the signature.
    public let algorithm: SignatureAlgorithm
}
