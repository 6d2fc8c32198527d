import Foundation
import SignetMacros

/// Sliding-window counters for login throttling (per account, per client address).
///
/// Keys are chosen by the caller; they should not contain personal data in clear (hash an email
/// or an address before using it as a key).
public protocol ThrottleStore: Sendable {
    /// Records one hit at `now` and returns the number of hits in `(now - windowSeconds, now]`,
    /// this one included. Hits older than the window are forgotten.
    func hit(key: String, windowSeconds: Int, now: Date) throws -> Int

    /// The number of hits in `(now - windowSeconds, now]`, without recording one.
    func hitCount(key: String, windowSeconds: Int, now: Date) throws -> Int

    /// Forgets every hit of the key (for example after a successful sign-in).
    func resetHits(key: String) throws

    /// Check and count in one step: when every limit has fewer than `limit` hits in its window,
    /// records one hit at `now` on each key and returns true; otherwise records nothing and
    /// returns false. Atomic across callers and nodes: of many concurrent calls on a key with room
    /// for n more hits, exactly n succeed.
    func hitIfUnder(_ limits: [ThrottleLimit], now: Date) throws -> Bool

    /// Removes one hit recorded at exactly `now` from each key (a hit taken by `hitIfUnder` for
    /// an attempt that turned out not to count, such as a successful sign-in).
    func removeHit(keys: [String], at now: Date) throws
}

/// One counter and its limit, for `ThrottleStore.hitIfUnder`.
@MemberwiseInit
public struct ThrottleLimit: Sendable, Equatable {
    /// The counter key.
    public var key: String
    /// Hits allowed inside the window; a call is refused when this many are there already.
    public var limit: Int
    /// The sliding window, in seconds.
    public var windowSeconds: Int
}
