/// The outcome of redeeming an authorization code.
public enum CodeConsumption: Sendable, Equatable {
    /// This call redeemed the code; the record carries `consumedAt`.
    case consumed(AuthorizationCodeRecord)
    /// The code was redeemed before: a replay. RFC 6749 §4.1.2: the caller denies the request and
    /// revokes the grant (`RefreshTokenStore.revokeGrant(issuedFrom:reason:now:)`).
    case alreadyConsumed(AuthorizationCodeRecord)
    /// The code exists, was never redeemed, and has expired.
    case expired
    /// No code has this hash.
    case notFound
}
