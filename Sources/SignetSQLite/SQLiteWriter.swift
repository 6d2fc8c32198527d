import Foundation

/// The one writer connection behind the in-process write lock.
///
/// The lock is a plain `pthread_mutex_t` (`NSLock`): a thread that finds it held sleeps on a
/// futex at once. With `synchronous = FULL` every commit holds it through an `fdatasync`
/// (milliseconds on a virtual disk), so under load the other request thread nearly always finds
/// it held; `Synchronization.Mutex` first spins 1,000 times and then sleeps on a
/// priority-inheriting futex, and that spin and the kernel's PI bookkeeping cost CPU on every
/// such wait (bench/README.md, "CPU per operation").
final class SQLiteWriter: @unchecked Sendable {
    private let lock = NSLock()
    /// Used only while `lock` is held: that rule, not the compiler, is why this is `@unchecked Sendable`.
    private let connection: SQLiteConnection

    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Runs `body` on the writer connection while holding the lock.
    func withLock<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}
