import Foundation
import SignetSQL
import SignetStore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The embedded store: one SQLite database file in WAL mode, with the facets of `SQLStores`.
///
/// Writes go through a single writer connection, where writes that queue up share one commit
/// (`SQLiteWriter`, group commit), reads through a pool of read connections that run in parallel
/// with the writer (`SQLiteDatabase`). Other processes on the
/// same file (the CLI while the server runs) are serialised by SQLite's own locking and
/// `busy_timeout`. Read-then-write operations run in `BEGIN IMMEDIATE` transactions.
public final class SQLiteStorage: SQLStorage, Sendable {
    /// The database file.
    public let path: String
    let database: SQLiteDatabase
    /// Every facet, over `database`.
    public let stores: SQLStores
    private let checkpointer = Mutex<SQLiteCheckpointer?>(nil)

    /// The writer's `PRAGMA synchronous`, as SQLite reports it (2 = FULL, 1 = NORMAL).
    public func synchronousLevel() throws -> Int {
        try database.writer.withLock { db in Int(try db.one("PRAGMA synchronous", []) { try $0.int64(0) } ?? -1) }
    }

    /// Opens the database at `path`, creating it (mode 0600) and its directory (mode 0700) if needed,
    /// and applies pending migrations unless `migrate` is false. `synchronous` is the writer's
    /// durability (`SQLiteSynchronous`; FULL by default). `maxIdleReaders` is how many read
    /// connections the pool keeps between reads: at least the threads that read at once, or
    /// readers are opened and closed under load (`SQLiteDatabase.maxIdleReaders`).
    /// Throws `.backend` if the file cannot be opened or its schema is newer than this build.
    public convenience init(path: String, migrate: Bool = true, maxIdleReaders: Int = 8,
                            synchronous: SQLiteSynchronous = .full) throws {
        try self.init(path: path, migrate: migrate, maxIdleReaders: maxIdleReaders, ownedDirectory: nil,
                      synchronous: synchronous)
    }

    private init(path: String, migrate: Bool, maxIdleReaders: Int, ownedDirectory: String?,
                 synchronous: SQLiteSynchronous = .full) throws {
        try Self.createFileIfMissing(path)
        let connection = try SQLiteConnection.open(path: path, synchronous: synchronous)
        _ = try connection.one("PRAGMA journal_mode = WAL", []) { try $0.text(0) }
        self.path = path
        self.database = SQLiteDatabase(path: path, writer: connection, maxIdleReaders: maxIdleReaders,
                                       ownedDirectory: ownedDirectory)
        self.stores = SQLStores(database)
        database.writer.report(to: stores.timings)
        let version = try currentVersion()
        guard version <= SQLMigrations.latest else {
            throw StoreError.backend("database schema version \(version) is newer than this build (\(SQLMigrations.latest))")
        }
        if migrate { try self.migrate() }
    }

    deinit {
        checkpointer.withLock { $0?.stop() }
    }

    /// For a long-running server: turns off automatic checkpoints on the writer (they run inside a
    /// commit, with an fsync, while every other write waits) and checkpoints from a background
    /// thread every `interval` seconds instead.
    public func startBackgroundCheckpoints(interval: TimeInterval = 0.25) throws {
        try checkpointer.withLock { current in
            guard current == nil else { return }
            try database.writer.withLock { try $0.execute("PRAGMA wal_autocheckpoint = 0") }
            current = try SQLiteCheckpointer(database: database, interval: interval)
        }
    }

    /// A migrated database in a fresh temporary directory, deleted when the store and every facet
    /// taken from it are released.
    /// For tests.
    public static func temporary(maxIdleReaders: Int = 8) throws -> SQLiteStorage {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("signet-store-\(UUID().uuidString)").path
        return try SQLiteStorage(path: directory + "/signet.sqlite3", migrate: true, maxIdleReaders: maxIdleReaders,
                                 ownedDirectory: directory)
    }

    /// Applies every migration of `SQLMigrations` newer than the database, each in its own
    /// transaction; returns the versions applied (empty when the schema is current). Safe to run
    /// from several processes (SQLite's write lock).
    @discardableResult
    public func migrate() throws -> [Int] {
        try database.writer.withLock { db in try SQLMigrations.migrate(db) }
    }

    /// Read connections opened since the store was: one per reader the pool keeps, unless more
    /// threads read at once than it keeps (each further one is opened for its read and closed).
    public var readerConnectionsOpened: Int { database.readersOpened.load(ordering: .relaxed) }

    /// How many read connections the pool keeps between reads (`maxIdleReaders`).
    public var readersKept: Int { database.maxIdleReaders }

    /// The highest migration applied to the database (0 for a new file).
    public func currentVersion() throws -> Int {
        try database.writer.withLock { db in try SQLMigrations.currentVersion(db) }
    }

    /// Creates the file with mode 0600 (and its directory with 0700) so the WAL and shared-memory
    /// files SQLite derives from it get the same mode.
    private static func createFileIfMissing(_ path: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) { return }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !manager.fileExists(atPath: directory) {
            do {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.backend("cannot create directory for the database: \(error.localizedDescription)")
            }
        }
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw StoreError.backend("cannot create the database file (errno \(errno))")
        }
    }
}
