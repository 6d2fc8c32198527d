import Synchronization

/// Hands a suspended caller the first of several competing results (work finishing, a deadline
/// passing) and drops the rest, so its continuation is resumed exactly once.
public final class FirstResult<T: Sendable>: Sendable {
    private let pending: Mutex<CheckedContinuation<T, Never>?>

    /// Guards `continuation`.
    public init(_ continuation: CheckedContinuation<T, Never>) {
        pending = Mutex(continuation)
    }

    /// Resumes the caller with `value` if nothing did yet; later offers do nothing.
    public func offer(_ value: T) {
        pending.withLock { waiting in
            waiting?.resume(returning: value)
            waiting = nil
        }
    }
}
