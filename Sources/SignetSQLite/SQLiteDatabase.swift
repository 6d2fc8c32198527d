import Foundation
import SignetSQL
import Synchronization

/// The connections of one SQLite file: a single writer connection behind a lock (`SQLiteWriter`;
/// SQLite allows one writer at a time anyway; queuing in-process avoids busy-waiting), and a pool
/// of read-only connections that run in parallel with the writer.
final class SQLiteDatabase: SQLDatabase {
    let path: String
    let writer: SQLiteWriter
    let idleReaders = Mutex<[SQLiteConnection]>([])
    let maxIdleReaders: Int
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

    /// Runs `body` on the writer connection, holding the in-process write lock.
    @discardableResult
    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.withLock { db in try body(db) }
    }

    /// Runs `body` on a read connection from the pool (opening one if none is idle).
    @discardableResult
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let db = try idleReaders.withLock { $0.popLast() } ?? SQLiteConnection.open(path: path, readOnly: true)
        defer {
            idleReaders.withLock { idle in
                if idle.count < maxIdleReaders { idle.append(db) }
            }
        }
        return try body(db)
    }
}
