import Foundation
import SignetStore

extension PostgresStorage: ThrottleStore {
    /// See `ThrottleStore.hit(key:windowSeconds:now:)`.
    ///
    /// Hits on one key are serialised by a transaction-scoped advisory lock on the key's hash (as
    /// SQLite's single writer does), so racing hits each see their own count.
    public func hit(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return try withConnection { db in
            try db.transaction {
                try db.run("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [key])
                try db.run("DELETE FROM throttle_hits WHERE key = $1 AND at <= $2", [key, start])
                try db.run("INSERT INTO throttle_hits (key, at) VALUES ($1, $2)", [key, now])
                return try Self.count(key: key, after: start, upTo: now, db)
            }
        }
    }

    /// See `ThrottleStore.hitCount(key:windowSeconds:now:)`.
    public func hitCount(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return try withConnection { db in try Self.count(key: key, after: start, upTo: now, db) }
    }

    /// See `ThrottleStore.resetHits(key:)`.
    public func resetHits(key: String) throws {
        try withConnection { db in _ = try db.run("DELETE FROM throttle_hits WHERE key = $1", [key]) }
    }

    /// See `ThrottleStore.hitIfUnder(_:now:)`: every key's advisory lock is taken first, in
    /// sorted order so two callers never wait on each other crosswise, then counted and written.
    public func hitIfUnder(_ limits: [ThrottleLimit], now: Date) throws -> Bool {
        try withConnection { db in
            try db.transaction {
                for key in Set(limits.map(\.key)).sorted() {
                    try db.run("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [key])
                }
                for limit in limits {
                    let start = now.addingTimeInterval(-Double(limit.windowSeconds))
                    if try Self.count(key: limit.key, after: start, upTo: now, db) >= limit.limit { return false }
                }
                for limit in limits {
                    let start = now.addingTimeInterval(-Double(limit.windowSeconds))
                    try db.run("DELETE FROM throttle_hits WHERE key = $1 AND at <= $2", [limit.key, start])
                    try db.run("INSERT INTO throttle_hits (key, at) VALUES ($1, $2)", [limit.key, now])
                }
                return true
            }
        }
    }

    /// See `ThrottleStore.removeHit(keys:at:)`.
    public func removeHit(keys: [String], at now: Date) throws {
        try withConnection { db in
            try db.transaction {
                for key in keys {
                    try db.run("DELETE FROM throttle_hits WHERE ctid = (SELECT ctid FROM throttle_hits WHERE key = $1 AND at = $2 LIMIT 1)", [key, now])
                }
            }
        }
    }

    private static func count(key: String, after start: Date, upTo now: Date, _ db: PostgresConnection) throws -> Int {
        try db.one("SELECT COUNT(*) FROM throttle_hits WHERE key = $1 AND at > $2 AND at <= $3", [key, start, now]) {
            Int(try $0.int64(0))
        } ?? 0
    }
}
