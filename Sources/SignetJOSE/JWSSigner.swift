import SignetCrypto

/// Signs compact JWS (RFC 7515 §7.1) and JWTs with one private key, key ID and algorithm.
public struct JWSSigner: Sendable {
    /// The signing key.
    public let key: PrivateKey
    /// The key's public half pinned to the key ID and algorithm: the check that the algorithm
    /// fits the key is `VerificationKey`'s, made once for both halves.
    private let pinned: VerificationKey
    /// The `kid` header value.
    public var keyID: String { pinned.keyID }
    /// The `alg` header value.
    public var algorithm: SignatureAlgorithm { pinned.algorithm }

    /// Creates a signer.
    ///
    /// - Throws: `JOSEError.algorithmNotForKey` if `algorithm` does not fit the key type.
    public init(key: PrivateKey, keyID: String, algorithm: SignatureAlgorithm) throws(JOSEError) {
        self.key = key
        pinned = try VerificationKey(keyID: keyID, algorithm: algorithm, publicKey: key.publicKey)
    }

    /// The public JWK that verifies this signer's output.
    public func publicJWK() throws(JOSEError) -> JWK {
        try JWK(publicKey: key.publicKey, keyID: keyID, algorithm: algorithm)
    }

    /// The verification key for this signer's output.
    public func verificationKey() throws(JOSEError) -> VerificationKey {
        pinned
    }

    /// Signs `payload` and returns `header.payload.signature`, with the header
    /// `{"alg":…,"kid":…,"typ":…}` (typ omitted when nil).
    public func sign(payload: [UInt8], type: String? = nil) throws(JOSEError) -> String {
        // The members in the order `JSONValue.serialized()` sorts them (alg < kid < typ), written
        // without a dictionary: this runs for every token issued.
        var header = JSONObjectWriter(capacity: 64 + keyID.utf8.count)
        header.add("alg", algorithm.rawValue)
        header.add("kid", keyID)
        header.add("typ", type)
        var signingInput = Array(Base64URL.encode(header.finished()).utf8)
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(payload).utf8)
        let signature: [UInt8]
        do {
            signature = try key.sign(signingInput, algorithm: algorithm)
        } catch {
            throw .signingFailed
        }
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(signature).utf8)
        return String(decoding: signingInput, as: UTF8.self)
    }

    /// Signs a JWT whose payload is the deterministic serialization of `claims`.
    public func signJWT(_ claims: JWTClaims, type: String? = "JWT") throws(JOSEError) -> String {
        try sign(payload: claims.jsonValue.serialized(), type: type)
    }
}
