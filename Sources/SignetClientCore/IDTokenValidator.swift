import Foundation
import SignetCrypto
import SignetJOSE

/// Validates ID tokens per OpenID Connect Core §3.1.3.7, with keys from a `VerificationKeySource`
/// (usually a `JWKSCache`) and an explicit `IDTokenPolicy`.
///
/// Order: shape → `alg` allowed (never `none`, never HMAC) → key for `kid` (no fallback; a token
/// without `kid` only when the provider's set holds a single key, OIDC Core §10.1) →
/// signature with the key's pinned algorithm → `exp`, `iat` (both required), `nbf` → `iss`
/// exactly → `aud` ∩ audiences, `azp` when several audiences → `sub` → nonce → `at_hash`.
public struct IDTokenValidator: Sendable {
    /// The policy.
    public let policy: IDTokenPolicy
    /// The key source.
    public let keys: any VerificationKeySource

    /// Creates a validator.
    public init(policy: IDTokenPolicy, keys: any VerificationKeySource) {
        self.policy = policy
        self.keys = keys
    }

    /// Validates `token`; when `accessToken` is given, `at_hash` must be present and match
    /// (OIDC Core §3.2.2.9; as the code flow allows, it is optional otherwise).
    public func validate(_ token: String, accessToken: String? = nil) async throws(IDTokenError) -> ValidatedIDToken {
        guard token.utf8.count <= policy.maxTokenBytes else { throw .malformed }
        let header = try Self.unverifiedHeader(token)
        guard let alg = header["alg"]?.stringValue else { throw .malformed }
        // RFC 8725 §3.1: `none` and any algorithm outside the policy are refused before any key lookup.
        if alg.lowercased() == "none" { throw .jose(.algorithmNone) }
        guard let algorithm = SignatureAlgorithm(rawValue: alg), policy.allowedAlgorithms.contains(algorithm) else {
            throw .algorithmNotAllowed
        }
        let verified: VerifiedJWT
        if let kidValue = header["kid"] {
            guard let kid = kidValue.stringValue else { throw .jose(.unknownKeyID) }
            let key: VerificationKey
            do { key = try await keys.keys(for: kid) } catch { throw .key(error) }
            verified = try verify(token, with: key)
        } else {
            // OpenID Connect Core §10.1: a provider whose JWK Set holds a single key may leave
            // `kid` out. With several keys the token must name one.
            let key: VerificationKey?
            do { key = try await keys.soleKey(refetch: false) } catch { throw .key(error) }
            guard let key else { throw .jose(.missingKeyID) }
            do {
                verified = try verify(token, with: key)
            } catch .jose(.badSignature) {
                // The provider may have replaced its only key: one refetch, within the source's limit.
                guard let fresh = try? await keys.soleKey(refetch: true), fresh.keyID != key.keyID else {
                    throw .jose(.badSignature)
                }
                verified = try verify(token, with: fresh)
            }
        }
        let claims = verified.claims
        guard let iat = claims.iat else { throw .missingTimeClaim }
        if let maximumAge = policy.maximumAge, policy.clock().timeIntervalSince(iat) > maximumAge + policy.leeway {
            throw .badIssuedAt
        }
        guard let iss = claims.values["iss"]?.stringValue,
              iss.utf8.elementsEqual(policy.issuer.utf8) || policy.issuerAliases.contains(where: { $0.utf8.elementsEqual(iss.utf8) }) else {
            throw .wrongIssuer
        }
        guard let audiences = try? claims.audiences(), !audiences.isEmpty,
              audiences.contains(where: policy.audiences.contains) else { throw .wrongAudience }
        if let azp = claims.values["azp"] {
            guard let party = azp.stringValue, policy.audiences.contains(party) else { throw .wrongAuthorizedParty }
        } else if audiences.count > 1 {
            throw .wrongAuthorizedParty
        }
        guard let sub = claims.sub, !sub.isEmpty else { throw .missingSubject }
        try checkNonce(claims.values["nonce"])
        if let accessToken {
            guard let atHash = claims.values["at_hash"]?.stringValue,
                  constantTimeEquals(Array(atHash.utf8), Array(Self.atHash(accessToken, algorithm: algorithm).utf8)) else {
                throw .atHashMismatch
            }
        }
        return ValidatedIDToken(claims: claims, keyID: verified.keyID)
    }

    /// `at_hash` / `c_hash`: base64url of the left half of the hash of the ASCII token, with the
    /// hash of the signing algorithm (SHA-256 for RS256/PS256/ES256, SHA-512 for EdDSA).
    public static func atHash(_ token: String, algorithm: SignatureAlgorithm) -> String {
        let digest = algorithm == .edDSA ? Digest.sha512(Array(token.utf8)) : Digest.sha256(Array(token.utf8))
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    /// Signature, header and times with one key; iss/aud are checked by the caller with OIDC's rules.
    private func verify(_ token: String, with key: VerificationKey) throws(IDTokenError) -> VerifiedJWT {
        do {
            var jwtPolicy = VerificationPolicy(requireExp: true)
            jwtPolicy.limits = policy.limits
            jwtPolicy.allowsMissingKeyIDWithSingleKey = true
            return try JWTVerifier(keys: [key], policy: jwtPolicy).verify(token)
        } catch .expired {
            throw .expired
        } catch .missingExpiration {
            throw .missingTimeClaim
        } catch .issuedInFuture {
            throw .badIssuedAt
        } catch {
            throw .jose(error)
        }
    }

    private func checkNonce(_ value: JSONValue?) throws(IDTokenError) {
        switch policy.nonce {
        case .none:
            return
        case .required:
            guard value?.stringValue != nil else { throw .missingNonce }
        case .equals(let expected):
            guard let nonce = value?.stringValue else { throw .missingNonce }
            guard constantTimeEquals(Array(nonce.utf8), Array(expected.utf8)) else { throw .nonceMismatch }
        case .matches(let predicate):
            guard let nonce = value?.stringValue else { throw .missingNonce }
            guard predicate(nonce) else { throw .nonceMismatch }
        }
    }

    /// The JOSE header, parsed without trusting it (only to choose the key).
    static func unverifiedHeader(_ token: String) throws(IDTokenError) -> [String: JSONValue] {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(bytes: parts[0]),
              let object = try? JSONValue.parse(bytes, maximumDepth: 8).objectValue else { throw .malformed }
        return object
    }
}
