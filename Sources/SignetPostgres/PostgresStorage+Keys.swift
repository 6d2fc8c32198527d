import Foundation
import SignetStore

extension PostgresStorage: SigningKeyStore {
    static let keyColumns = """
        id, algorithm, encrypted_private_key, public_jwk, created_at, activates_at, retired_at, remove_after
        """

    static func decodeKey(_ row: PostgresRow) throws -> SigningKeyRecord {
        SigningKeyRecord(
            id: try row.text(0), algorithm: try row.text(1), encryptedPrivateKey: try row.blob(2),
            publicJWK: try row.text(3), createdAt: try row.date(4), activatesAt: try row.date(5),
            retiredAt: try row.optionalDate(6), removeAfter: try row.optionalDate(7))
    }

    /// Inserts the row and bumps the keys generation (inside the caller's transaction).
    static func insertKeyRow(_ key: SigningKeyRecord, _ db: PostgresConnection) throws {
        try db.run("INSERT INTO signing_keys (\(Self.keyColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", [
            key.id, key.algorithm, key.encryptedPrivateKey, key.publicJWK, key.createdAt,
            key.activatesAt, key.retiredAt, key.removeAfter,
        ])
        try Self.bumpGeneration("keys", db)
    }

    /// See `SigningKeyStore.insertKey(_:)`.
    public func insertKey(_ key: SigningKeyRecord) throws {
        try withConnection { db in
            try db.transaction {
                try Self.insertKeyRow(key, db)
            }
        }
    }

    /// See `SigningKeyStore.insertKeyUnlessOneCanSign(_:now:)`: a transaction holding an
    /// advisory lock on the key table, so two nodes cannot both find no signing key.
    public func insertKeyUnlessOneCanSign(_ key: SigningKeyRecord, now: Date) throws -> Bool {
        try withConnection { db in
            try db.transaction {
                _ = try db.query("SELECT pg_advisory_xact_lock(hashtext('signet.signing_keys'))", []) { _ in () }
                let signing = try db.query("""
                    SELECT id FROM signing_keys
                    WHERE algorithm = $1 AND activates_at <= $2 AND (retired_at IS NULL OR retired_at > $3)
                    """, [key.algorithm, now.addingTimeInterval(SigningKeyRecord.firstKeySkew), now]) { try $0.text(0) }
                guard signing.isEmpty else { return false }
                try Self.insertKeyRow(key, db)
                return true
            }
        }
    }

    /// See `SigningKeyStore.allKeys()`.
    public func allKeys() throws -> [SigningKeyRecord] {
        try withConnection { db in
            try db.query("SELECT \(Self.keyColumns) FROM signing_keys ORDER BY created_at, id", [], Self.decodeKey)
        }
    }

    /// See `SigningKeyStore.retireKey(id:retiredAt:removeAfter:)`.
    public func retireKey(id: String, retiredAt: Date, removeAfter: Date) throws {
        try withConnection { db in
            try db.transaction {
                let changed = try db.run("UPDATE signing_keys SET retired_at = $1, remove_after = $2 WHERE id = $3",
                                         [retiredAt, removeAfter, id])
                guard changed == 1 else { throw StoreError.notFound }
                try Self.bumpGeneration("keys", db)
            }
        }
    }

    /// See `SigningKeyStore.deleteRemovedKeys(now:)`.
    public func deleteRemovedKeys(now: Date) throws -> Int {
        try withConnection { db in
            try db.transaction {
                let deleted = try db.run("DELETE FROM signing_keys WHERE remove_after < $1", [now])
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
    static func bumpGeneration(_ name: String, _ db: PostgresConnection) throws {
        try db.run("UPDATE store_generation SET value = value + 1 WHERE name = $1", [name])
    }

    func generation(_ name: String) throws -> Int64 {
        try withConnection { db in
            try db.one("SELECT value FROM store_generation WHERE name = $1", [name]) { try $0.int64(0) } ?? 0
        }
    }
}
