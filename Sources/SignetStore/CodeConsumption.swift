import Foundation

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

    /// RFC 6749 §4.1.2, single use, as a pure function of the code's row as read (nil: no such
    /// code) in the transaction that redeems it: `.consumed` (with `consumedAt` = `now`) means
    /// the store writes `consumed_at` in that transaction; every other outcome writes nothing.
    /// A redeemed code stays `.alreadyConsumed` after its expiry, so replays are always seen.
    public static func decide(_ code: AuthorizationCodeRecord?, now: Date) -> CodeConsumption {
        guard var code else { return .notFound }
        if code.consumedAt != nil { return .alreadyConsumed(code) }
        guard now < code.expiresAt else { return .expired }
        code.consumedAt = now
        return .consumed(code)
    }
}
