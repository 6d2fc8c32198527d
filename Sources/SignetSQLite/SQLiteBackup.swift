import CSQLite
import Foundation
import SignetStore
#if canImport(Glibc)
import Glibc
#endif

/// A consistent copy of a live SQLite database with SQLite's online backup API
/// (`sqlite3_backup_init`/`_step`/`_finish`), for `signet backup`.
///
/// The copy is taken in one backup step, inside one read transaction on the source: in WAL mode a
/// reader never blocks the server's writer, and the copy is the database as of that transaction's
/// start (whatever commits meanwhile is not in it). The destination is created with `O_EXCL` and
/// mode 0600 (an existing file is never overwritten, also not by a race), and is switched to
/// `journal_mode=DELETE`, so the backup is one self-contained file with no `-wal` or `-shm`.
public enum SQLiteBackup {
    /// Why a backup failed.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        /// What went wrong.
        public let description: String
    }

    /// Copies the database at `source` to a new file `destination`; returns its size in bytes.
    public static func copy(from source: String, to destination: String) throws(Failure) -> Int {
        guard FileManager.default.fileExists(atPath: source) else { throw Failure(description: "no database at \(source)") }
        let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "it exists; refusing to overwrite it" : String(cString: strerror(errno))
            throw Failure(description: "cannot create \(destination): \(reason)")
        }
        close(fd)
        do {
            try run(source: source, destination: destination)
        } catch {
            unlink(destination)
            throw error
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: destination)
        return attributes?[.size] as? Int ?? 0
    }

    private static func run(source: String, destination: String) throws(Failure) {
        var from: OpaquePointer?
        var to: OpaquePointer?
        defer {
            sqlite3_close_v2(from)
            sqlite3_close_v2(to)
        }
        guard sqlite3_open_v2(source, &from, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let from else {
            throw Failure(description: "cannot open \(source): \(message(from))")
        }
        guard sqlite3_open_v2(destination, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let to else {
            throw Failure(description: "cannot open \(destination): \(message(to))")
        }
        sqlite3_busy_timeout(from, 10_000)
        sqlite3_busy_timeout(to, 10_000)
        guard let backup = sqlite3_backup_init(to, "main", from, "main") else {
            throw Failure(description: "backup could not start: \(message(to))")
        }
        // -1: every page in one step, so the copy is one snapshot (a copy in several steps would
        // restart whenever the server writes between them).
        var rc = sqlite3_backup_step(backup, -1)
        var attempts = 0
        while (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && attempts < 100 {
            attempts += 1
            sqlite3_sleep(100)
            rc = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finished == SQLITE_OK else {
            throw Failure(description: "backup failed: \(String(cString: sqlite3_errstr(rc == SQLITE_DONE ? finished : rc)))")
        }
        guard sqlite3_exec(to, "PRAGMA journal_mode = DELETE", nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: "backup written, but its journal mode could not be reset: \(message(to))")
        }
        var check: OpaquePointer?
        defer { sqlite3_finalize(check) }
        guard sqlite3_prepare_v2(to, "PRAGMA quick_check", -1, &check, nil) == SQLITE_OK, sqlite3_step(check) == SQLITE_ROW,
              let text = sqlite3_column_text(check, 0), String(cString: text) == "ok" else {
            throw Failure(description: "the copy failed its integrity check: \(message(to))")
        }
    }

    private static func message(_ db: OpaquePointer?) -> String {
        db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "out of memory"
    }
}
