import Foundation
import SignetStore

/// Login throttling counters over a SQL database (`throttle_hits`).
///
/// Hits on one key are serialised by the transaction's writer lock on the key
/// (`SQLConnection.lock`: SQLite's single writer, a PostgreSQL advisory lock), so racing hits each
/// see their own count.
public struct SQLThrottleStore: ThrottleStore {
    let database: any SQLDatabase

    static let expire = "DELETE FROM throttle_hits WHERE key = $1 AND at <= $2"
    static let insert = SQLTemplate.insert(into: "throttle_hits", "key, at")
    static let count = "SELECT COUNT(*) FROM throttle_hits WHERE key = $1 AND at > $2 AND at <= $3"
    static let reset = "DELETE FROM throttle_hits WHERE key = $1"
    static let removeOne = """
        DELETE FROM throttle_hits WHERE {rowid} = (SELECT {rowid} FROM throttle_hits WHERE key = $1 AND at = $2 LIMIT 1)
        """

    /// See `ThrottleStore.hit(key:windowSeconds:now:)`.
    public func hit(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return try database.transaction { db in
            try db.lock(key)
            try Self.record(key: key, after: start, at: now, db)
            return try Self.count(key: key, after: start, upTo: now, db)
        }
    }

    /// See `ThrottleStore.hitCount(key:windowSeconds:now:)`.
    public func hitCount(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return try database.read { db in try Self.count(key: key, after: start, upTo: now, db) }
    }

    /// See `ThrottleStore.resetHits(key:)`.
    public func resetHits(key: String) throws {
        try database.write { db in _ = try db.run(Self.reset, [key]) }
    }

    /// See `ThrottleStore.hitIfUnder(_:now:)`: every key's lock is taken first, in sorted order so
    /// two callers never wait on each other crosswise, then counted and written.
    public func hitIfUnder(_ limits: [ThrottleLimit], now: Date) throws -> Bool {
        try database.transaction { db in
            for key in Set(limits.map(\.key)).sorted() { try db.lock(key) }
            for limit in limits {
                let start = now.addingTimeInterval(-Double(limit.windowSeconds))
                if try Self.count(key: limit.key, after: start, upTo: now, db) >= limit.limit { return false }
            }
            for limit in limits {
                try Self.record(key: limit.key, after: now.addingTimeInterval(-Double(limit.windowSeconds)), at: now, db)
            }
            return true
        }
    }

    /// See `ThrottleStore.removeHit(keys:at:)`.
    public func removeHit(keys: [String], at now: Date) throws {
        try database.transaction { db in
            for key in keys { try db.run(Self.removeOne, [key, now]) }
        }
    }

    /// Drops the key's hits older than the window and records one at `now`.
    private static func record(key: String, after start: Date, at now: Date, _ db: any SQLConnection) throws {
        try db.run(expire, [key, start])
        try db.run(insert, [key, now])
    }

    private static func count(key: String, after start: Date, upTo now: Date, _ db: any SQLConnection) throws -> Int {
        try db.one(count, [key, start, now]) { Int(try $0.int64(0)) } ?? 0
    }
}
