import Foundation

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
}
