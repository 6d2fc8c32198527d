import Foundation
import SignetStore

extension SQLiteStorage: SigningKeyStore {
    static let keyColumns = """
        id, algorithm, encrypted_private_key, public_jwk, created_at, activates_at, retired_at, remove_after
        """

    static func decodeKey(_ row: SQLiteRow) throws -> SigningKeyRecord {
        SigningKeyRecord(
            id: try row.text(0), algorithm: try row.text(1), encryptedPrivateKey: try row.blob(2),
            publicJWK: try row.text(3), createdAt: try row.date(4), activatesAt: try row.date(5),
            retiredAt: row.optionalDate(6), removeAfter: row.optionalDate(7))
    }

    /// Inserts the row and bumps the keys generation (inside the caller's transaction).
    static func insertKeyRow(_ key: SigningKeyRecord, _ db: SQLiteConnection) throws {
        try db.run("INSERT INTO signing_keys (\(Self.keyColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
            key.id, key.algorithm, key.encryptedPrivateKey, key.publicJWK, key.createdAt,
            key.activatesAt, key.retiredAt, key.removeAfter,
        ])
        try Self.bumpGeneration("keys", db)
    }

    /// See `SigningKeyStore.insertKey(_:)`.
    public func insertKey(_ key: SigningKeyRecord) throws {
        try write { db in
            try db.immediateTransaction {
                try Self.insertKeyRow(key, db)
            }
        }
    }

    /// See `SigningKeyStore.insertKeyUnlessOneCanSign(_:now:)`: one `BEGIN IMMEDIATE`
    /// transaction, so the check and the insert see the same keys.
    public func insertKeyUnlessOneCanSign(_ key: SigningKeyRecord, now: Date) throws -> Bool {
        try write { db in
            try db.immediateTransaction {
                let signing = try db.query("""
                    SELECT id FROM signing_keys
                    WHERE algorithm = ? AND activates_at <= ? AND (retired_at IS NULL OR retired_at > ?)
                    """, [key.algorithm, now.addingTimeInterval(SigningKeyRecord.firstKeySkew), now]) { try $0.text(0) }
                guard signing.isEmpty else { return false }
                try Self.insertKeyRow(key, db)
                return true
            }
        }
    }

    /// See `SigningKeyStore.allKeys()`.
    public func allKeys() throws -> [SigningKeyRecord] {
        try read { db in
            try db.query("SELECT \(Self.keyColumns) FROM signing_keys ORDER BY created_at, id", [], Self.decodeKey)
        }
    }

    /// See `SigningKeyStore.retireKey(id:retiredAt:removeAfter:)`.
    public func retireKey(id: String, retiredAt: Date, removeAfter: Date) throws {
        try write { db in
            try db.immediateTransaction {
                let changed = try db.run("UPDATE signing_keys SET retired_at = ?, remove_after = ? WHERE id = ?",
                                         [retiredAt, removeAfter, id])
                guard changed == 1 else { throw StoreError.notFound }
                try Self.bumpGeneration("keys", db)
            }
        }
    }

    /// See `SigningKeyStore.deleteRemovedKeys(now:)`.
    public func deleteRemovedKeys(now: Date) throws -> Int {
        try write { db in
            try db.immediateTransaction {
                let deleted = try db.run("DELETE FROM signing_keys WHERE remove_after < ?", [now])
                if deleted > 0 { try Self.bumpGeneration("keys", db) }
                return deleted
            }
        }
    }

    /// See `SigningKeyStore.keysGeneration()`.
    public func keysGeneration() throws -> Int64 {
        try generation("keys")
    }

    /// Bumps a cache-invalidation counter; call inside the transaction that made the change.
    static func bumpGeneration(_ name: String, _ db: SQLiteConnection) throws {
        try db.run("UPDATE store_generation SET value = value + 1 WHERE name = ?", [name])
    }

    func generation(_ name: String) throws -> Int64 {
        try read { db in
            try db.one("SELECT value FROM store_generation WHERE name = ?", [name]) { try $0.int64(0) } ?? 0
        }
    }
}
