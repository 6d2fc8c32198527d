import Foundation
import Glibc
import Synchronization

/// Runs WAL checkpoints on a background thread with its own connection, so the checkpoint's
/// bulk copy and fsync never happen inside a request's commit.
///
/// Each pass has three steps. First the WAL is copied into the database without the in-process
/// write lock (the slow part; writes go on meanwhile). Then, still unlocked, the database file is
/// synced if that copy moved frames: SQLite syncs the database at the end of a checkpoint only
/// when it copied every frame, which under steady load the unlocked copy never does (commits land
/// during it), so without this step every page the unlocked copies wrote was synced by the locked
/// step below, with the writes waiting (on a 10-million-token database that step took 17–55 ms,
/// four times a second; with this sync 2.5–4 ms: bench/README.md, "Figures measured (session
/// 16)"). Last, holding the write lock, the frames committed meanwhile are copied too and the
/// database synced (a few pages): with no writer in between, the WAL ends fully checkpointed, so
/// the next write starts it over from its beginning (SQLite restarts a WAL only when every frame is
/// in the database). Without the locked step a server under steady load never reached that point:
/// its WAL grew without bound (223 MB in 15 s of refresh rotations), every commit appended to a new
/// region of the file (the kernel zeroes each new page: 13 % of the server's CPU) and every read
/// searched a longer WAL index.
final class SQLiteCheckpointer: Sendable {
    private let flag = StopFlag()

    /// Starts checkpointing `database` every `interval` seconds until `stop()`.
    init(database: SQLiteDatabase, interval: TimeInterval) throws {
        let connection = try SQLiteConnection.open(path: database.path)
        let box = ConnectionBox(connection)
        let thread = Thread { [flag] in
            var checkpointed: Int64 = -1
            while !flag.isSet {
                Thread.sleep(forTimeInterval: interval)
                if flag.isSet { break }
                checkpointed = Self.pass(box.connection, database: database, after: checkpointed)
            }
            Self.pass(box.connection, database: database)
        }
        thread.name = "signet-ckpt"
        thread.start()
    }

    /// One checkpoint of `database` on `connection`: unlocked, the database file synced if that
    /// copy moved frames, then under the write lock. `previous` is what the last pass returned: the
    /// WAL's checkpointed frame count after it. SQLite's own counts cannot say whether it synced
    /// the database (they are its snapshot's, so a copy that commits overtook looks complete), so
    /// the file is synced whenever the count moved; a copy that moved nothing (an idle server)
    /// syncs nothing. `betweenSteps` runs after the unlocked copy (tests: a write that lands
    /// during it); `sync` is the database file's sync (tests: one that counts).
    @discardableResult
    static func pass(_ connection: SQLiteConnection, database: SQLiteDatabase, after previous: Int64 = -1,
                     betweenSteps: () -> Void = {}, sync: (String) -> Void = syncFile(atPath:)) -> Int64 {
        let copied = try? connection.one("PRAGMA wal_checkpoint(PASSIVE)", []) { row in try row.int64(2) }
        betweenSteps()
        if let copied, copied > 0, copied != previous { sync(database.path) }
        return database.writer.withLock { _ in
            (try? connection.one("PRAGMA wal_checkpoint(PASSIVE)", []) { row in try row.int64(2) }) ?? -1
        }
    }

    /// `fdatasync` of the file at `path`, through a descriptor of its own (Linux syncs the file's
    /// pages whichever descriptor wrote them). A failure is left to the locked step's own sync,
    /// which SQLite checks.
    static func syncFile(atPath path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fdatasync(descriptor)
        close(descriptor)
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
