import Foundation
import SignetCrypto

/// Verifies compact JWS/JWT with a fixed set of keys and an explicit policy.
///
/// Key selection: the token MUST carry a `kid` naming one of the keys. A token without `kid` is
/// rejected even when there is only one key (`missingKeyID`) unless the policy's
/// `allowsMissingKeyIDWithSingleKey` is set (upstream ID tokens), and an unknown `kid` never falls
/// back to another key (`unknownKeyID`). The algorithm is pinned by the key: the header's `alg`
/// must equal it exactly.
public struct JWTVerifier: Sendable {
    /// The policy applied by `verify`.
    public let policy: VerificationPolicy
    private let keys: [String: VerificationKey]

    /// Header members that would let a token name its own key or key source (RFC 8725 §3.10).
    static let forbiddenHeaders = ["jwk", "jku", "x5u", "x5c"]

    /// Creates a verifier.
    ///
    /// - Throws: `JOSEError.duplicateKeyID` if two keys share a key ID.
    public init(keys: [VerificationKey], policy: VerificationPolicy) throws(JOSEError) {
        var byID: [String: VerificationKey] = [:]
        for key in keys {
            guard byID.updateValue(key, forKey: key.keyID) == nil else { throw .duplicateKeyID }
        }
        self.keys = byID
        self.policy = policy
    }

    /// Checks the token's shape, header and signature, but no claims.
    public func verifySignature(_ token: String) throws(JOSEError) -> VerifiedJWS {
        let bytes = token.utf8
        guard bytes.count <= policy.maxTokenBytes else { throw .tokenTooLarge }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .wrongSegmentCount }
        guard let headerBytes = Base64URL.decode(bytes: parts[0]),
              let payload = Base64URL.decode(bytes: parts[1]),
              let signature = Base64URL.decode(bytes: parts[2]) else { throw .invalidBase64URL }
        guard let header = try JSONValue.parseForJOSE(headerBytes).objectValue else { throw .notAJSONObject }

        guard let alg = header["alg"]?.stringValue else { throw .missingAlgorithm }
        // RFC 8725 §3.1/§3.2: never "none", never HMAC with a public key.
        if alg.lowercased() == "none" { throw .algorithmNone }
        if alg.uppercased().hasPrefix("HS") { throw .symmetricAlgorithm }
        if header["crit"] != nil { throw .criticalHeader }
        for name in Self.forbiddenHeaders where header[name] != nil { throw .forbiddenHeader(name) }
        guard policy.acceptsType(header["typ"]?.stringValue) else { throw .wrongType }
        let key: VerificationKey
        if let kidValue = header["kid"] {
            guard let kid = kidValue.stringValue, let named = keys[kid] else { throw .unknownKeyID }
            key = named
        } else {
            // OpenID Connect Core §10.1: `kid` may be left out when there is a single key.
            guard policy.allowsMissingKeyIDWithSingleKey, keys.count == 1, let only = keys.values.first else {
                throw .missingKeyID
            }
            key = only
        }
        guard alg.utf8.elementsEqual(key.algorithm.rawValue.utf8) else { throw .algorithmMismatch }

        // The signing input is the ASCII of the first two parts and the dot between them.
        let signingInput = Array(bytes[parts[0].startIndex..<parts[1].endIndex])
        guard key.publicKey.verify(signature: signature, message: signingInput, algorithm: key.algorithm) else {
            throw .badSignature
        }
        return VerifiedJWS(header: header, payload: payload, keyID: key.keyID, algorithm: key.algorithm)
    }

    /// Verifies a JWT: everything `verifySignature` checks, then the claims against the policy.
    public func verify(_ token: String) throws(JOSEError) -> VerifiedJWT {
        let jws = try verifySignature(token)
        guard let object = try JSONValue.parseForJOSE(jws.payload).objectValue else { throw .notAJSONObject }
        let claims = JWTClaims(object)
        let now = policy.clock()

        // RFC 7519 §4.1.4: the current time must be before exp.
        if let exp = try claims.numericDate("exp") {
            guard now < exp.addingTimeInterval(policy.leeway) else { throw .expired }
        } else if policy.requireExp {
            throw .missingExpiration
        }
        if let nbf = try claims.numericDate("nbf") {
            guard now.addingTimeInterval(policy.leeway) >= nbf else { throw .notYetValid }
        }
        if let iat = try claims.numericDate("iat") {
            guard iat <= now.addingTimeInterval(policy.leeway) else { throw .issuedInFuture }
        }
        if let issuer = policy.issuer {
            guard let iss = claims.values["iss"] else { throw .wrongIssuer }
            guard let value = iss.stringValue else { throw .invalidClaim("iss") }
            // Exact, byte-for-byte (String == would also accept canonically equivalent forms).
            guard value.utf8.elementsEqual(issuer.utf8) else { throw .wrongIssuer }
        }
        if let audience = policy.audience {
            guard let audiences = try claims.audiences(),
                  audiences.contains(where: { $0.utf8.elementsEqual(audience.utf8) }) else { throw .wrongAudience }
        }
        return VerifiedJWT(header: jws.header, claims: claims, keyID: jws.keyID, algorithm: jws.algorithm)
    }
}
