import Foundation
import Synchronization

/// Runs WAL checkpoints on a background thread with its own connection, so the checkpoint's
/// bulk copy and fsync never happen inside a request's commit.
///
/// Each pass has two steps. First the WAL is copied into the database without the in-process write
/// lock (the slow part; writes go on meanwhile). Then, holding the write lock, the frames committed
/// during that copy are copied too: with no writer in between, the WAL ends fully checkpointed, so
/// the next write starts it over from its beginning (SQLite restarts a WAL only when every frame is
/// in the database). Without the second step a server under steady load never reached that point:
/// its WAL grew without bound (223 MB in 15 s of refresh rotations), every commit appended to a new
/// region of the file (the kernel zeroes each new page: 13 % of the server's CPU) and every read
/// searched a longer WAL index. The locked step copies only a few milliseconds' worth of frames.
final class SQLiteCheckpointer: Sendable {
    private let flag = StopFlag()

    /// Starts checkpointing `database` every `interval` seconds until `stop()`.
    init(database: SQLiteDatabase, interval: TimeInterval) throws {
        let connection = try SQLiteConnection.open(path: database.path)
        let box = ConnectionBox(connection)
        let thread = Thread { [flag] in
            while !flag.isSet {
                Thread.sleep(forTimeInterval: interval)
                if flag.isSet { break }
                Self.pass(box.connection, database: database)
            }
            Self.pass(box.connection, database: database)
        }
        thread.name = "signet-ckpt"
        thread.start()
    }

    /// One checkpoint of `database` on `connection`: unlocked, then under the write lock.
    /// `betweenSteps` runs between the two (tests: a write that lands during the first step).
    static func pass(_ connection: SQLiteConnection, database: SQLiteDatabase, betweenSteps: () -> Void = {}) {
        try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        betweenSteps()
        database.writer.withLock { _ in try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)") }
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
