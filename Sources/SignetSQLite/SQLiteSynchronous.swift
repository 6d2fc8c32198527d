/// How the SQLite writer syncs its write-ahead log (`PRAGMA synchronous`), a durability decision.
public enum SQLiteSynchronous: String, Sendable, CaseIterable {
    /// The log is synced at every commit: a committed rotation, revocation or sign-out survives a
    /// power loss or an OS crash. The default.
    case full
    /// The log is synced only at checkpoints: faster commits, and the database is never corrupted,
    /// but the last commits before a power loss or an OS crash can roll back (a revoked token or
    /// ended session can come back, a rotation can be lost). A process crash loses nothing.
    case normal

    /// The pragma's value.
    var pragma: String { rawValue.uppercased() }
}
