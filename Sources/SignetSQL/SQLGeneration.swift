import Foundation

/// The cache-invalidation counters (`store_generation`): a write that node-local caches must see
/// bumps its counter in the same transaction; caches compare it before trusting themselves.
enum SQLGeneration {
    static let bump = "UPDATE store_generation SET value = value + 1 WHERE name = $1"
    static let value = "SELECT value FROM store_generation WHERE name = $1"

    /// Bumps counter `name`; call inside the transaction that made the change.
    static func bump(_ name: String, _ db: any SQLConnection) throws {
        try db.run(bump, [name])
    }

    /// The counter `name` (0 if missing).
    static func read(_ name: String, _ database: any SQLDatabase) throws -> Int64 {
        try database.read { db in try db.one(value, [name]) { try $0.int64(0) } ?? 0 }
    }
}
