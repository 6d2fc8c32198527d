import Foundation
import Synchronization

/// Runs blocking or CPU-heavy work (password hashing, blocking database calls) on a small pool of
/// dedicated threads, so async handlers never block Swift's cooperative thread pool.
///
/// The pool has as many threads as the machine has cores (at least two); extra work waits in a
/// FIFO queue. Cancellation of the awaiting task does not interrupt work that has started.
public enum BlockingWork {
    /// Runs `work` on a pool thread and returns its result (or rethrows its error). The caller's
    /// `RequestContext` is bound there too, so the work's log lines and audit events keep it.
    public static func run<T: Sendable>(_ work: @Sendable @escaping () throws -> T) async throws -> T {
        let context = RequestContext.current
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            BlockingWorkPool.shared.submit {
                RequestContext.$current.withValue(context) {
                    do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
                }
            }
        }
    }

    /// Number of threads in the pool.
    public static var threadCount: Int { BlockingWorkPool.shared.threadCount }

    /// True when the caller runs on one of the pool's threads.
    public static var isOnPoolThread: Bool { Thread.current.threadDictionary[BlockingWorkPool.marker] as? Bool == true }
}

/// A fixed set of threads draining one FIFO queue of jobs.
final class BlockingWorkPool: Sendable {
    static let marker = "signet.blocking-work"
    static let shared = BlockingWorkPool(threadCount: max(2, ProcessInfo.processInfo.activeProcessorCount))

    let threadCount: Int
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    init(threadCount: Int) {
        self.threadCount = threadCount
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                Thread.current.name = "signet-blk-\(index)"   // set from the thread itself; Linux keeps 15 characters
                Thread.current.threadDictionary[BlockingWorkPool.marker] = true
                self.loop()
            }
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    private func loop() {
        while true {
            available.wait()
            let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            job?()
        }
    }
}
