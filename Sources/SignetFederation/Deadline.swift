import Foundation
import SignetClientCore

/// An overall deadline for a provider round trip, on top of each call's own time limit: if the
/// work has not finished after `seconds` (a lost completion in the HTTP stack, say), the caller
/// gets `upstreamUnavailable` and the work is abandoned. Never waits on the work itself.
enum Deadline {
    static func run<T: Sendable>(seconds: TimeInterval, _ work: @escaping @Sendable () async throws(FederationError) -> T)
        async throws(FederationError) -> T {
        let result: Result<T, FederationError> = await withCheckedContinuation { continuation in
            let first = FirstResult(continuation)
            let worker = Task {
                do throws(FederationError) { first.offer(.success(try await work())) } catch { first.offer(.failure(error)) }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                first.offer(.failure(.upstreamUnavailable("no answer within \(Int(seconds)) s")))
                worker.cancel()
            }
        }
        return try result.get()
    }
}
