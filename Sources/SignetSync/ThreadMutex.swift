#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// A value behind a plain `pthread_mutex_t`: for state that every request thread touches.
///
/// `Synchronization.Mutex` on Linux spins, then sleeps on a priority-inheriting futex
/// (`futex_lock_pi`), and its unlock hands the lock to the sleeping waiter, which must be
/// scheduled before anyone may take the lock again: with 16 request threads on 2 cores, a holder
/// descheduled mid-section makes every other thread queue behind a wake-up (bench/README.md,
/// "Session 11 (http)" and "Session 18 (locks)"). A default-kind pthread mutex lets whichever
/// thread runs take a free lock. Use `Mutex` for everything else; it needs no allocation.
public final class ThreadMutex<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock. `body` must not take this lock again.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
