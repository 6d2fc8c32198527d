import Foundation
import SignetCore
import SignetStore

/// Deletes expired rows (`SignetStorage.purge(before:)`) every `maintenance.purge_interval`
/// seconds on a thread of its own, so a long-running server's database stops growing.
///
/// The interval is real time; "expired" is judged by the environment's clock, minus
/// `maintenance.purge_retention`, so replays of recently expired codes and tokens are still
/// recognised. A failing purge is logged and tried again at the next interval; it never stops the
/// server. The thread is not part of the Swift cooperative pool; a purge holds the store only as
/// long as one batch of deletes, like any request, and rests between batches
/// (`maintenance.purge_rest`), so the requests' writes go on at close to their undisturbed rate.
public final class PeriodicPurge: Sendable {
    /// Closed by `stop()`; never rung, so each wait lasts the whole interval.
    private let stopping = Doorbell()
    private let thread: BackgroundThread

    /// Starts purging `storage` every `interval` seconds, removing rows that expired or ended more
    /// than `retention` seconds before `clock.now`, and audit events older than `auditRetention`
    /// seconds (0: none; `AuditLog.purgeAudit(before:now:)` keeps the chain's checkpoint), at `pace`
    /// (`maintenance.purge_rest`). The first purge runs one interval after start.
    public init(storage: any SignetStorage, clock: any Clock, interval: Int, retention: Int, pace: PurgePace = .standard,
                auditRetention: Int = 0) {
        let period = TimeInterval(max(interval, 1))
        var pace = pace
        // `stop()` ends a long purge at its next rest instead of waiting for it to finish.
        pace.wait = { [stopping] seconds in stopping.wait(seconds: seconds) }
        thread = BackgroundThread(name: "signet-purge") { [stopping, pace] in
            while stopping.wait(seconds: period) {
                let cutoff = clock.now.addingTimeInterval(-TimeInterval(retention))
                do {
                    var removed = try storage.purge(before: cutoff, pace: pace)
                    if auditRetention > 0 {
                        let now = clock.now
                        removed += try storage.audit.purgeAudit(before: now.addingTimeInterval(-TimeInterval(auditRetention)), now: now)
                    }
                    if removed > 0 { Log.info("purge: deleted \(removed) expired row(s)") }
                } catch {
                    Log.error("purge failed (retrying in \(interval) s): \(error)")
                }
            }
        }
    }

    /// Stops the thread and waits until it has ended (a purge in progress stops after its current
    /// batch), so nothing touches the store afterwards. Safe to call more than once.
    public func stop() {
        stopping.close()
        thread.join()
    }
}
