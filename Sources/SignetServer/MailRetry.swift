import Foundation
import SignetMacros

/// When a message whose attempt failed transiently is tried again: exponential backoff from
/// `first` doubling up to `longest`, each delay shortened by up to `jitter` of itself at random
/// (so nodes that failed together do not retry together), for at most `window` after the message
/// was enqueued; past it the message is given up.
@MemberwiseInit
public struct MailRetry: Sendable, Equatable {
    /// The delay after the first failed attempt, in seconds.
    public var first: TimeInterval
    /// The longest delay, in seconds.
    public var longest: TimeInterval
    /// The share of each delay taken off at random (0 ... 1).
    public var jitter: Double
    /// How long after enqueueing a message is retried, in seconds.
    public var window: TimeInterval

    /// 30 s doubling to 1 h, up to a quarter less at random, for 24 hours.
    public static let standard = MailRetry(first: 30, longest: 3600, jitter: 0.25, window: 86_400)

    /// The delay after attempt `attempts` (1 for the first) failed; `unit` is a random number in
    /// 0 ..< 1.
    public func delay(afterAttempt attempts: Int, unit: Double) -> TimeInterval {
        let doublings = Double(min(max(attempts - 1, 0), 30))
        let base = min(first * pow(2, doublings), longest)
        return base * (1 - jitter * min(max(unit, 0), 1))
    }

    /// When to try again after attempt `attempts` failed at `now`, or nil to give up: the next
    /// attempt would fall outside the window.
    public func nextAttempt(afterAttempt attempts: Int, now: Date, enqueuedAt: Date, unit: Double) -> Date? {
        let next = now.addingTimeInterval(delay(afterAttempt: attempts, unit: unit))
        return next.timeIntervalSince(enqueuedAt) <= window ? next : nil
    }
}
