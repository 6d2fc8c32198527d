import Foundation
import SignetSQL
import SignetSync
import Synchronization

/// The connections of one SQLite file: a single writer connection (`SQLiteWriter`; SQLite allows
/// one writer at a time anyway; queuing in-process avoids busy-waiting, and lets writes that
/// queue up share one commit), and a pool of read-only connections that run in parallel with the
/// writer.
final class SQLiteDatabase: SQLDatabase {
    let path: String
    let writer: SQLiteWriter
    let idleReaders = ThreadMutex<[SQLiteConnection]>([])
    /// How many idle readers the pool keeps. A reader opened beyond it is closed after its read,
    /// and opening one costs a schema parse, so this should be at least the number of threads that
    /// may read at once (the server passes its request threads, `SignetApplication.sqliteReaders`).
    let maxIdleReaders: Int
    /// Read connections opened since start-up (tests and `readerConnectionsOpened`).
    let readersOpened = Atomic(0)
    /// A directory to delete on deinit (for `SQLiteStorage.temporary()`), or nil. The facets hold
    /// this handle, so the files live as long as any of them.
    let ownedDirectory: String?

    init(path: String, writer: SQLiteConnection, maxIdleReaders: Int, ownedDirectory: String?) {
        self.path = path
        self.writer = SQLiteWriter(writer)
        self.maxIdleReaders = maxIdleReaders
        self.ownedDirectory = ownedDirectory
    }

    deinit {
        if let ownedDirectory { try? FileManager.default.removeItem(atPath: ownedDirectory) }
    }

    /// Runs `body` on the writer connection as a member of a group commit (`SQLiteWriter`): in
    /// autocommit when it is the only write, else inside the group's transaction, its statements
    /// kept even if it throws (as in autocommit). Returns once they are committed.
    @discardableResult
    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.write(.statements) { db in try body(db) }
    }

    /// Runs `body` as one transaction of a group commit (`SQLiteWriter`): `BEGIN IMMEDIATE` when
    /// it opens the group's transaction, else a savepoint in it; a throw rolls back `body` alone.
    /// Returns once the group has committed.
    @discardableResult
    func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.write(.transaction) { db in try body(db) }
    }

    /// Runs `body` on the writer connection between group commits, outside any transaction.
    @discardableResult
    func writeOutsideTransaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.withLock { db in try body(db) }
    }

    /// Runs `body` on a read connection from the pool (opening one if none is idle).
    @discardableResult
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let db = try idleReaders.withLock { $0.popLast() } ?? openReader()
        defer {
            idleReaders.withLock { idle in
                if idle.count < maxIdleReaders { idle.append(db) }
            }
        }
        return try body(db)
    }

    private func openReader() throws -> SQLiteConnection {
        let reader = try SQLiteConnection.open(path: path, readOnly: true)
        readersOpened.add(1, ordering: .relaxed)
        return reader
    }
}
