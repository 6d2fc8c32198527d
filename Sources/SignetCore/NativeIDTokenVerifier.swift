import SignetWire

/// Verifies a provider's ID token for native sign-in. Implemented outside SignetCore (it fetches
/// the provider's keys over the network); SignetServer's implementation uses SignetClientCore's
/// `IDTokenValidator` with the connection's JWKS.
public protocol NativeIDTokenVerifier: Sendable {
    /// The connection with this id, or nil if none is configured.
    func connection(id: String) -> NativeSignInConnection?

    /// Verifies `idToken` for the connection: signature with the provider's published key (no
    /// fallback key, never `none`), `iss` exactly, `aud` among the connection's native client ids
    /// (with `azp` when several), `exp`/`iat`, a present `nonce` claim.
    ///
    /// - Returns: who signed in (issuer, subject, email and the provider's verified flag), after
    ///   the connection's policy, and the token's `nonce` claim (raw or hashed, per the
    ///   connection's `NonceForm`).
    /// - Throws: `OAuthError` — `invalid_grant` for any defect of the token,
    ///   `temporarily_unavailable` when the provider's keys cannot be fetched.
    func verify(_ idToken: String, connection: NativeSignInConnection) async throws(OAuthError)
        -> (identity: UpstreamIdentity, nonce: String)
}
