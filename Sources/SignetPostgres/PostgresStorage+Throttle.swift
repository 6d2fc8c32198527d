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

    private static func count(key: String, after start: Date, upTo now: Date, _ db: PostgresConnection) throws -> Int {
        try db.one("SELECT COUNT(*) FROM throttle_hits WHERE key = $1 AND at > $2 AND at <= $3", [key, start, now]) {
            Int(try $0.int64(0))
        } ?? 0
    }
}
