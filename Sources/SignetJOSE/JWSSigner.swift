import SignetCrypto

/// Signs compact JWS (RFC 7515 §7.1) and JWTs with one private key, key ID and algorithm.
public struct JWSSigner: Sendable {
    /// The signing key.
    public let key: PrivateKey
    /// The `kid` header value.
    public let keyID: String
    /// The `alg` header value.
    public let algorithm: SignatureAlgorithm

    /// Creates a signer.
    ///
    /// - Throws: `JOSEError.algorithmNotForKey` if `algorithm` does not fit the key type.
    public init(key: PrivateKey, keyID: String, algorithm: SignatureAlgorithm) throws(JOSEError) {
        guard algorithm.fits(key.type) else { throw .algorithmNotForKey }
        self.key = key
        self.keyID = keyID
        self.algorithm = algorithm
    }

    /// The public JWK that verifies this signer's output.
    public func publicJWK() throws(JOSEError) -> JWK {
        try JWK(publicKey: key.publicKey, keyID: keyID, algorithm: algorithm)
    }

    /// The verification key for this signer's output.
    public func verificationKey() throws(JOSEError) -> VerificationKey {
        try VerificationKey(keyID: keyID, algorithm: algorithm, publicKey: key.publicKey)
    }

    /// Signs `payload` and returns `header.payload.signature`, with the header
    /// `{"alg":…,"kid":…,"typ":…}` (typ omitted when nil).
    public func sign(payload: [UInt8], type: String? = nil) throws(JOSEError) -> String {
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "kid": .string(keyID)]
        if let type { header["typ"] = .string(type) }
        var signingInput = Array(Base64URL.encode(JSONValue.object(header).serialized()).utf8)
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
