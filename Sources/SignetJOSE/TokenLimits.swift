import Foundation

/// The bounds every token check applies, whatever its policy asks of the claims: the longest
/// token accepted, and the time window (now, from an injected clock, give or take the leeway).
///
/// `VerificationPolicy` carries one, and so do the policies built on it (SignetClientCore's
/// `IDTokenPolicy`, SignetResource's `AccessTokenValidator`), which hand theirs on as it is.
public struct TokenLimits: Sendable {
    /// Clock skew tolerated for `exp`, `nbf` and `iat`, in seconds.
    public var leeway: TimeInterval
    /// Longest accepted token, in bytes; longer tokens are rejected before any decoding.
    public var maxTokenBytes: Int
    /// The current time; injected so tests use a fixed clock.
    public var clock: @Sendable () -> Date

    /// Limits. Defaults: 60 s leeway, 16 KiB, the system clock.
    public init(leeway: TimeInterval = 60, maxTokenBytes: Int = 16 * 1024, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.leeway = leeway
        self.maxTokenBytes = maxTokenBytes
        self.clock = clock
    }
}
