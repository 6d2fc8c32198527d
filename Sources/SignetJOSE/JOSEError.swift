/// The one error type thrown by SignetJOSE. Each rejection has its own case so callers and tests
/// can tell them apart; none carries token, key or claim values.
public enum JOSEError: Error, Sendable, Equatable {
    // Token shape
    /// The token is longer than the policy's `maxTokenBytes`.
    case tokenTooLarge
    /// The compact serialization does not have exactly three dot-separated parts.
    case wrongSegmentCount
    /// A part is not strict unpadded base64url (includes whitespace and trailing garbage).
    case invalidBase64URL
    /// The header or payload is not valid JSON.
    case malformedJSON
    /// The header or payload repeats a JSON member name.
    case duplicateJSONKey
    /// The header or payload is valid JSON but not an object.
    case notAJSONObject

    // Header
    /// The header has no string `alg`.
    case missingAlgorithm
    /// `alg` is `none` in any letter case (RFC 8725 §3.1): unsecured tokens are never accepted.
    case algorithmNone
    /// `alg` is an HMAC algorithm (HS256/HS384/HS512) but Signet only verifies with asymmetric keys.
    case symmetricAlgorithm
    /// `alg` differs from the algorithm pinned by the selected key.
    case algorithmMismatch
    /// The header has no `kid`, so no key can be selected.
    case missingKeyID
    /// No key has the token's `kid` (there is never a fallback to another key).
    case unknownKeyID
    /// The header carries `crit`; Signet understands no extensions (RFC 7515 §4.1.11).
    case criticalHeader
    /// The header carries a key or key reference (`jwk`, `jku`, `x5u`, `x5c`) named in the member.
    case forbiddenHeader(String)
    /// `typ` is missing or not one of the policy's allowed types.
    case wrongType

    // Signature
    /// The signature does not verify with the selected key.
    case badSignature

    // Claims
    /// A registered claim has the wrong JSON type (for example a string `exp`); the member name.
    case invalidClaim(String)
    /// The policy requires `exp` and the token has none.
    case missingExpiration
    /// The token expired (`exp` plus leeway is not after now).
    case expired
    /// The token is not valid yet (`nbf` is after now plus leeway).
    case notYetValid
    /// `iat` is further in the future than the leeway allows.
    case issuedInFuture
    /// `iss` is missing or differs from the policy's issuer.
    case wrongIssuer
    /// `aud` is missing or does not contain the policy's audience.
    case wrongAudience

    // Keys
    /// A JWK is malformed, has an unsupported type or curve, or does not describe a valid key.
    case invalidKey
    /// A JWK carries private key members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`).
    case privateKeyMaterial
    /// Two keys share one key ID.
    case duplicateKeyID
    /// The algorithm cannot be used with the key's type.
    case algorithmNotForKey
    /// The signature operation failed inside the crypto layer.
    case signingFailed
}
