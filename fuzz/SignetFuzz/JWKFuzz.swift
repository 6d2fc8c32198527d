import SignetJOSE

/// JWK and JWK Set parsing: any bytes give a JWK Set or a `JOSEError`. A parsed JWK survives a
/// round trip through its JSON form unchanged, with the same RFC 7638 thumbprint, and importing
/// its key either fails cleanly or gives a key whose JWK has the same thumbprint.
enum JWKFuzz {
    static func run(_ input: [UInt8]) {
        if let set = try? JWKSet(jsonBytes: input) {
            for jwk in set.keys { check(jwk) }
            if let kid = set.keys.first?.kid { require(set.key(withID: kid) != nil, "key(withID:) misses a kid the set holds") }
            _ = try? set.verificationKeys()
            require((try? JWKSet(jsonBytes: set.jsonBytes())) == set, "a JWK Set changed through its JSON form")
        }
        if let jwk = try? JWK(jsonBytes: input) { check(jwk) }
    }

    static func check(_ jwk: JWK) {
        let again = try? JWK(jsonBytes: jwk.jsonBytes())
        require(again == jwk, "a JWK changed through its JSON form")
        require(again?.thumbprint() == jwk.thumbprint(), "a JWK's thumbprint changed through its JSON form")
        guard let key = try? jwk.verificationKey(), let algorithm = try? jwk.signatureAlgorithm() else { return }
        require(algorithm.fits(key.publicKey.type), "a JWK imported with an algorithm that does not fit its key")
        if let exported = try? JWK(publicKey: key.publicKey, keyID: key.keyID, algorithm: algorithm) {
            require(exported.thumbprint() == jwk.thumbprint(), "a key's thumbprint changed through import and export")
        }
    }
}
