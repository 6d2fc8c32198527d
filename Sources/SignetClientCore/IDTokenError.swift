import SignetJOSE

/// Why an ID token was refused. Carries no claim values.
public enum IDTokenError: Error, Sendable, Equatable {
    /// Not a compact JWS with a JSON header (or larger than the policy allows).
    case malformed
    /// `alg` is not one of the policy's allowed algorithms (`none` is never allowed).
    case algorithmNotAllowed
    /// The key for the token's `kid` could not be obtained (unknown `kid`, key set unavailable).
    case key(KeySourceError)
    /// Signature, header or registered-claim check failed in the JOSE layer (bad signature,
    /// expired, wrong issuer, …).
    case jose(JOSEError)
    /// `iss` is missing or not exactly the expected issuer.
    case wrongIssuer
    /// `aud` is missing or contains none of the accepted audiences.
    case wrongAudience
    /// Several audiences and no `azp`, or an `azp` that is not one of ours (OIDC Core §3.1.3.7 ¶4–5).
    case wrongAuthorizedParty
    /// `sub` is missing or empty.
    case missingSubject
    /// `exp` or `iat` is missing.
    case missingTimeClaim
    /// The token has expired (`exp` plus leeway is past).
    case expired
    /// `iat` is in the future beyond the leeway, or older than `maximumAge`.
    case badIssuedAt
    /// The policy requires a nonce and the token has none.
    case missingNonce
    /// The nonce does not match.
    case nonceMismatch
    /// `at_hash` is missing or does not match the access token.
    case atHashMismatch
}
