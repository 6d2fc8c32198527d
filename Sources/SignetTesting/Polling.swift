import Foundation

/// Waiting for a condition by polling, with an upper bound: for child processes, pipes and flags,
/// which have no event to await, and for tests that wait on a counter (a mock's in-flight requests).
public enum Polling {
    /// Checks `done` every 5 ms until it holds (true) or `seconds` pass (false).
    public static func wait(seconds: Double, until done: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }

    /// The same, blocking the calling thread (2 ms steps), for callers that cannot await.
    public static func waitBlocking(seconds: Double, until done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }
}
