import Foundation
import SignetCore
import SignetStore

/// Deletes expired rows (`SignetStorage.purge(before:)`) every `maintenance.purge_interval`
/// seconds on a thread of its own, so a long-running server's database stops growing.
///
/// The interval is real time; "expired" is judged by the environment's clock, minus
/// `maintenance.purge_retention`, so replays of recently expired codes and tokens are still
/// recognised. A failing purge is logged and tried again at the next interval; it never stops the
/// server. The thread is not part of the Swift cooperative pool, and a purge holds the store only
/// as long as one statement batch, like any request.
public final class PeriodicPurge: Sendable {
    private let state = NSCondition()
    private nonisolated(unsafe) var stopping = false
    private nonisolated(unsafe) var finished = false

    /// Starts purging `storage` every `interval` seconds, removing rows that expired or ended more
    /// than `retention` seconds before `clock.now`. The first purge runs one interval after start.
    public init(storage: any SignetStorage, clock: any Clock, interval: Int, retention: Int) {
        let thread = Thread { [self] in
            let period = TimeInterval(max(interval, 1))
            while waitForNextRound(period) {
                let cutoff = clock.now.addingTimeInterval(-TimeInterval(retention))
                do {
                    let removed = try storage.purge(before: cutoff)
                    if removed > 0 { Log.info("purge: deleted \(removed) expired row(s)") }
                } catch {
                    Log.error("purge failed (retrying in \(interval) s): \(error)")
                }
            }
            state.lock()
            finished = true
            state.broadcast()
            state.unlock()
        }
        thread.name = "signet-purge"
        thread.start()
    }

    /// Waits `period` seconds; false once `stop()` was called.
    private func waitForNextRound(_ period: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(period)
        state.lock()
        defer { state.unlock() }
        while !stopping && Date() < deadline { _ = state.wait(until: deadline) }
        return !stopping
    }

    /// Stops the thread and waits until it has ended (after the purge in progress, if any), so
    /// nothing touches the store afterwards. Safe to call more than once.
    public func stop() {
        state.lock()
        stopping = true
        state.broadcast()
        while !finished { state.wait() }
        state.unlock()
    }
}
