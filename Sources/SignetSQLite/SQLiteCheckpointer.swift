import Foundation
import Synchronization

/// Runs WAL checkpoints on a background thread with its own connection, so the checkpoint's
/// fsync never happens inside a request's commit while the writer lock is held.
final class SQLiteCheckpointer: Sendable {
    private let flag = StopFlag()

    /// Starts checkpointing `path` every `interval` seconds until `stop()`.
    init(path: String, interval: TimeInterval) throws {
        let connection = try SQLiteConnection.open(path: path)
        let box = ConnectionBox(connection)
        let thread = Thread { [flag] in
            while !flag.isSet {
                Thread.sleep(forTimeInterval: interval)
                if flag.isSet { break }
                try? box.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
            try? box.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
        thread.name = "signet-ckpt"
        thread.start()
    }

    /// Ends the thread after its current sleep.
    func stop() { flag.set() }

    private final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    /// Moves the checkpointer's connection into its thread (used by that thread only).
    private final class ConnectionBox: @unchecked Sendable {
        let connection: SQLiteConnection
        init(_ connection: SQLiteConnection) { self.connection = connection }
    }
}
