import Foundation
import Synchronization

/// The time source of every rule in SignetCore. Core never reads the wall clock directly.
public protocol Clock: Sendable {
    /// The current time.
    var now: Date { get }
}

/// The system's wall clock.
public struct SystemClock: Clock {
    /// Creates the clock.
    public init() {}
    /// `Date()`.
    public var now: Date { Date() }
}

/// A clock that only moves when told to: for tests of expiry rules.
public final class ManualClock: Clock {
    private let current: Mutex<Date>

    /// Starts the clock at `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The clock's time.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}
