import Foundation
import SignetStore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The embedded store: one SQLite database file in WAL mode.
///
/// Writes go through a single writer connection behind a lock (SQLite allows one writer at a time
/// anyway; queuing in-process avoids busy-waiting), reads through a pool of read connections that
/// run in parallel with the writer. Other processes on the same file (the CLI while the server
/// runs) are serialised by SQLite's own locking and `busy_timeout`. Read-then-write operations
/// run in `BEGIN IMMEDIATE` transactions; single-use operations are one `UPDATE … RETURNING`.
public final class SQLiteStorage: SignetStorage, Sendable {
    /// The database file.
    public let path: String
    let writer: Mutex<SQLiteConnection>
    let idleReaders = Mutex<[SQLiteConnection]>([])
    let maxIdleReaders: Int
    /// A directory to delete on deinit (for `temporary()`), or nil.
    private let ownedDirectory: String?
    private let checkpointer = Mutex<SQLiteCheckpointer?>(nil)

    /// Opens the database at `path`, creating it (mode 0600) and its directory (mode 0700) if needed,
    /// and applies pending migrations unless `migrate` is false.
    /// Throws `.backend` if the file cannot be opened or its schema is newer than this build.
    public convenience init(path: String, migrate: Bool = true, maxIdleReaders: Int = 8) throws {
        try self.init(path: path, migrate: migrate, maxIdleReaders: maxIdleReaders, ownedDirectory: nil)
    }

    private init(path: String, migrate: Bool, maxIdleReaders: Int, ownedDirectory: String?) throws {
        try Self.createFileIfMissing(path)
        let connection = try SQLiteConnection.open(path: path)
        _ = try connection.one("PRAGMA journal_mode = WAL", []) { try $0.text(0) }
        self.path = path
        self.writer = Mutex(connection)
        self.maxIdleReaders = maxIdleReaders
        self.ownedDirectory = ownedDirectory
        let version = try currentVersion()
        guard version <= SQLiteMigrations.latest else {
            throw StoreError.backend("database schema version \(version) is newer than this build (\(SQLiteMigrations.latest))")
        }
        if migrate { try self.migrate() }
    }

    deinit {
        checkpointer.withLock { $0?.stop() }
        if let ownedDirectory { try? FileManager.default.removeItem(atPath: ownedDirectory) }
    }

    /// For a long-running server: turns off automatic checkpoints on the writer (they run inside a
    /// commit, with an fsync, while every other write waits) and checkpoints from a background
    /// thread every `interval` seconds instead.
    public func startBackgroundCheckpoints(interval: TimeInterval = 0.25) throws {
        try checkpointer.withLock { current in
            guard current == nil else { return }
            try writer.withLock { try $0.execute("PRAGMA wal_autocheckpoint = 0") }
            current = try SQLiteCheckpointer(path: path, interval: interval)
        }
    }

    /// A migrated database in a fresh temporary directory, deleted when the store is released.
    /// For tests.
    public static func temporary() throws -> SQLiteStorage {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("signet-store-\(UUID().uuidString)").path
        return try SQLiteStorage(path: directory + "/signet.sqlite3", migrate: true, maxIdleReaders: 8,
                                 ownedDirectory: directory)
    }

    /// Applies every migration newer than the database, each in its own transaction; returns the
    /// versions applied (empty when the schema is current). Safe to run from several processes.
    @discardableResult
    public func migrate() throws -> [Int] {
        try write { db in
            try db.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    INTEGER PRIMARY KEY,
                    applied_at INTEGER NOT NULL
                )
                """)
            var applied: [Int] = []
            for (index, sql) in SQLiteMigrations.all.enumerated() {
                let version = index + 1
                let didApply = try db.immediateTransaction { () throws -> Bool in
                    let done = try db.one("SELECT 1 FROM schema_migrations WHERE version = ?", [version]) { _ in true }
                    if done != nil { return false }
                    try db.execute(sql)
                    // Bookkeeping only, so the wall clock is fine here.
                    try db.run("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [version, Date()])
                    return true
                }
                if didApply { applied.append(version) }
            }
            return applied
        }
    }

    /// The highest migration applied to the database (0 for a new file).
    public func currentVersion() throws -> Int {
        try write { db in
            let exists = try db.one(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'", []) { _ in true }
            guard exists != nil else { return 0 }
            return try db.one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", []) { try $0.int64(0) }
                .map { Int($0) } ?? 0
        }
    }

    /// Signing keys (this object).
    public var keys: any SigningKeyStore { self }
    /// Registered clients (this object).
    public var clients: any ClientStore { self }
    /// Users (this object).
    public var users: any UserStore { self }
    /// Pending `/authorize` requests (this object).
    public var authorizationRequests: any AuthorizationRequestStore { self }
    /// Authorization codes (this object).
    public var codes: any AuthorizationCodeStore { self }
    /// Grant families and refresh tokens (this object).
    public var refreshTokens: any RefreshTokenStore { self }
    /// SSO sessions (this object).
    public var sessions: any SessionStore { self }
    /// Consent (this object).
    public var consents: any ConsentStore { self }
    /// Nonces (this object).
    public var nonces: any NonceStore { self }
    /// Audit log (this object).
    public var audit: any AuditLog { self }
    /// Throttle counters (this object).
    public var throttle: any ThrottleStore { self }

    /// Deletes expired and ended artifacts; see `SignetStorage.purge(before:)`.
    public func purge(before: Date) throws -> Int {
        try write { db in
            try db.immediateTransaction {
                var removed = 0
                removed += try db.run("DELETE FROM authorization_requests WHERE expires_at < ?", [before])
                removed += try db.run("DELETE FROM authorization_codes WHERE expires_at < ?", [before])
                removed += try db.run("DELETE FROM nonces WHERE expires_at < ?", [before])
                removed += try db.run("""
                    DELETE FROM sessions
                    WHERE absolute_expires_at < ?1 OR idle_expires_at < ?1 OR ended_at < ?1
                    """, [before])
                // Tokens go with their grant (ON DELETE CASCADE); count them first.
                let doomed = "SELECT grant_id FROM grants WHERE absolute_expires_at < ?1 OR revoked_at < ?1"
                removed += try db.one("SELECT COUNT(*) FROM refresh_tokens WHERE grant_id IN (\(doomed))", [before]) {
                    Int(try $0.int64(0))
                } ?? 0
                removed += try db.run("DELETE FROM grants WHERE absolute_expires_at < ?1 OR revoked_at < ?1", [before])
                removed += try db.run("DELETE FROM throttle_hits WHERE at < ?", [before])
                return removed
            }
        }
    }

    // MARK: Connections

    /// Runs `body` on the writer connection, holding the in-process write lock.
    @discardableResult
    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { db in try body(db) }
    }

    /// Runs `body` on a read connection from the pool (opening one if none is idle).
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let db = try idleReaders.withLock { $0.popLast() } ?? SQLiteConnection.open(path: path, readOnly: true)
        defer {
            idleReaders.withLock { idle in
                if idle.count < maxIdleReaders { idle.append(db) }
            }
        }
        return try body(db)
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
