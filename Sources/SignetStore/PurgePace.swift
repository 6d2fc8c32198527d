import Foundation

/// How `SignetStorage.purge(before:pace:)` spreads its deletes over time: rows per transaction,
/// and a rest after each full batch, so the writes that serve requests get the database in
/// between (SQLite has one writer, which a purge batch holds while it deletes; on PostgreSQL the
/// batches share the CPU and the disk with the requests).
///
/// A batch of expired grant families touches pages all over the tables and indexes (the keys are
/// random), so a purge of a million rows is a minute of writing; paced, it takes longer and the
/// server keeps serving at close to its undisturbed rate (bench/README.md, "Session 10 (store)").
public struct PurgePace: Sendable {
    /// Rows of one table deleted per transaction.
    public var batchSize: Int
    /// The rest after a full batch, as a multiple of the time that batch took: 9 keeps the purge
    /// inside its transactions about a tenth of the time; 0 never rests.
    public var restFactor: Double
    /// The longest rest, seconds (a batch slowed by a busy machine must not stall the purge).
    public var longestRest: TimeInterval
    /// Waits `seconds`; false stops the purge there (what it deleted so far stays deleted), so a
    /// server that stops need not wait for a long purge to finish.
    public var wait: @Sendable (_ seconds: TimeInterval) -> Bool

    /// A pace: `wait` sleeps the thread and never stops the purge unless told otherwise.
    public init(batchSize: Int, restFactor: Double, longestRest: TimeInterval = 1,
                wait: @escaping @Sendable (_ seconds: TimeInterval) -> Bool = PurgePace.sleep) {
        self.batchSize = batchSize
        self.restFactor = restFactor
        self.longestRest = longestRest
        self.wait = wait
    }

    /// `signet purge` and the server's periodic purge (`maintenance.purge_rest` sets the factor):
    /// 200 rows a transaction, resting 9 times as long as each batch took, at most 5 s.
    public static let standard = PurgePace(batchSize: 200, restFactor: 9, longestRest: 5)

    /// Sleeps the calling thread; always goes on.
    public static let sleep: @Sendable (TimeInterval) -> Bool = { seconds in
        Thread.sleep(forTimeInterval: seconds)
        return true
    }

    /// The rest after a full batch that took `batch`; false: stop the purge.
    public func rest(after batch: Duration) -> Bool {
        guard restFactor > 0 else { return true }
        let (seconds, attoseconds) = batch.components
        let took = Double(seconds) + Double(attoseconds) / 1e18
        return wait(min(longestRest, took * restFactor))
    }
}
