import SignetStore

/// What every grant that issues a refresh-token family shares (the authorization code, refresh
/// token and token exchange grants): built once by `AuthorizationServer`, held by each grant.
struct TokenGrantParts: Sendable {
    /// Code, token and nonce hashes.
    let tokens: OpaqueTokens
    /// Grant families and their tokens: created, rotated, revoked.
    let refreshTokens: any RefreshTokenStore
    /// A family's first refresh token, successors and their lifetime.
    let refreshMinter: RefreshTokenMinter
    /// Access and ID tokens.
    let responses: TokenResponseBuilder
    /// Replays, reuse and native sign-ins.
    let auditor: Auditor
    let clock: any Clock
}
