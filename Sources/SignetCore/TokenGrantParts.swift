import Foundation
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
    /// A new family's absolute lifetime, seconds (`lifetimes.refresh_token_absolute`).
    let familyLifetime: Int
    /// Access and ID tokens.
    let responses: TokenResponseBuilder
    /// Replays, reuse and native sign-ins.
    let auditor: Auditor
    let clock: any Clock

    /// When a family started at `start` ends, however often it is refreshed.
    func familyExpiry(startingAt start: Date) -> Date { start.addingTimeInterval(TimeInterval(familyLifetime)) }
}
