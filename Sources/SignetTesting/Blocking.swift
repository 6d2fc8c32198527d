import Foundation

/// Runs blocking work (socket reads, process waits) on a thread of its own, so async tests never
/// tie up the cooperative pool that an in-process server's async handlers also need.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }

    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.start()
        }
    }
}
