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

    private static func count(key: String, after start: Date, upTo now: Date, _ db: SQLiteConnection) throws -> Int {
        try db.one("SELECT COUNT(*) FROM throttle_hits WHERE key = ? AND at > ? AND at <= ?", [key, start, now]) {
            Int(try $0.int64(0))
        } ?? 0
    }
}
