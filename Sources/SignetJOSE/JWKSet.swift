import SignetCrypto

/// A JSON Web Key Set (RFC 7517 §5): the public keys an issuer publishes.
///
/// Parsing policy: keys Signet does not support (other `kty` or `crv`, algorithms other than
/// RS256/PS256/ES256/EdDSA, or `use` other than `sig`) are skipped, as RFC 7517 §5 recommends.
/// A supported key that is malformed, a key with private members, or two keys with the same `kid`
/// make the whole set fail to parse: those are publisher errors that must be seen, not hidden.
public struct JWKSet: Sendable, Hashable {
    /// The keys, in publication order.
    public var keys: [JWK]

    /// Creates a set from keys.
    public init(keys: [JWK]) {
        self.keys = keys
    }

    /// Parses `{"keys":[…]}` from JSON bytes.
    public init(jsonBytes: [UInt8]) throws(JOSEError) {
        let json = try JSONValue.parseForJOSE(jsonBytes)
        guard let object = json.objectValue else { throw .notAJSONObject }
        guard let entries = object["keys"]?.arrayValue else { throw .invalidKey }
        var keys: [JWK] = []
        var seen: Set<String> = []
        for entry in entries {
            let key = try JWK(json: entry)
            guard key.isSupportedSigningKey else { continue }
            _ = try key.verificationKey()  // malformed supported keys fail here
            if let kid = key.kid {
                guard seen.insert(kid).inserted else { throw .duplicateKeyID }
            }
            keys.append(key)
        }
        self.keys = keys
    }

    /// The key with key ID `kid`, if any. There is no fallback to another key.
    public func key(withID kid: String) -> JWK? {
        keys.first { $0.kid == kid }
    }

    /// The verification keys of the set, each pinned to its algorithm.
    public func verificationKeys() throws(JOSEError) -> [VerificationKey] {
        var result: [VerificationKey] = []
        for key in keys { result.append(try key.verificationKey()) }
        return result
    }

    /// The set as `{"keys":[…]}`.
    public var jsonValue: JSONValue {
        .object(["keys": .array(keys.map(\.jsonValue))])
    }

    /// Deterministic JSON serialization.
    public func jsonBytes() -> [UInt8] {
        jsonValue.serialized()
    }
}

extension JWK {
    /// Whether this key is of a type, curve, algorithm and use that Signet verifies with.
    var isSupportedSigningKey: Bool {
        switch (kty, crv) {
        case ("RSA", nil), ("EC", "P-256"), ("OKP", "Ed25519"): break
        default: return false
        }
        if let use, use != "sig" { return false }
        if let alg, SignatureAlgorithm(rawValue: alg) == nil { return false }
        return true
    }
}
