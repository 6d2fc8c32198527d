import Foundation
import SignetStore

extension SQLiteStorage: ThrottleStore {
    /// See `ThrottleStore.hit(key:windowSeconds:now:)`.
    public func hit(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return try write { db in
            try db.immediateTransaction {
                try db.run("DELETE FROM throttle_hits WHERE key = ? AND at <= ?", [key, start])
                try db.run("INSERT INTO throttle_hits (key, at) VALUES (?, ?)", [key, now])
                return try Self.count(key: key, after: start, upTo: now, db)
            }
        }
    }

    /// See `ThrottleStore.hitCount(key:windowSeconds:now:)`.
    public func hitCount(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return try read { db in try Self.count(key: key, after: start, upTo: now, db) }
    }

    /// See `ThrottleStore.resetHits(key:)`.
    public func resetHits(key: String) throws {
        try write { db in _ = try db.run("DELETE FROM throttle_hits WHERE key = ?", [key]) }
    }

    /// See `ThrottleStore.hitIfUnder(_:now:)`: one immediate transaction (SQLite's single
    /// writer), so the counts read are the counts written against.
    public func hitIfUnder(_ limits: [ThrottleLimit], now: Date) throws -> Bool {
        try write { db in
            try db.immediateTransaction {
                for limit in limits {
                    let start = now.addingTimeInterval(-Double(limit.windowSeconds))
                    if try Self.count(key: limit.key, after: start, upTo: now, db) >= limit.limit { return false }
                }
                for limit in limits {
                    let start = now.addingTimeInterval(-Double(limit.windowSeconds))
                    try db.run("DELETE FROM throttle_hits WHERE key = ? AND at <= ?", [limit.key, start])
                    try db.run("INSERT INTO throttle_hits (key, at) VALUES (?, ?)", [limit.key, now])
                }
                return true
            }
        }
    }

    /// See `ThrottleStore.removeHit(keys:at:)`.
    public func removeHit(keys: [String], at now: Date) throws {
        try write { db in
            try db.immediateTransaction {
                for key in keys {
                    try db.run("DELETE FROM throttle_hits WHERE rowid = (SELECT rowid FROM throttle_hits WHERE key = ? AND at = ? LIMIT 1)", [key, now])
                }
            }
        }
    }

    private static func count(key: String, after start: Date, upTo now: Date, _ db: SQLiteConnection) throws -> Int {
        try db.one("SELECT COUNT(*) FROM throttle_hits WHERE key = ? AND at > ? AND at <= ?", [key, start, now]) {
            Int(try $0.int64(0))
        } ?? 0
    }
}
