import Foundation
import SignetStore

/// Signing keys over a SQL database (`signing_keys`).
public struct SQLSigningKeyStore: SigningKeyStore {
    let database: any SQLDatabase

    static let keyColumns = """
        id, algorithm, encrypted_private_key, public_jwk, created_at, activates_at, retired_at, remove_after
        """

    static func decodeKey(_ row: any SQLRow) throws -> SigningKeyRecord {
        SigningKeyRecord(
            id: try row.text(0), algorithm: try row.text(1), encryptedPrivateKey: try row.blob(2),
            publicJWK: try row.text(3), createdAt: try row.date(4), activatesAt: try row.date(5),
            retiredAt: try row.optionalDate(6), removeAfter: try row.optionalDate(7))
    }

    static let insert = SQLTemplate.insert(into: "signing_keys", keyColumns)
    static let signing = """
        SELECT id FROM signing_keys
        WHERE algorithm = $1 AND activates_at <= $2 AND (retired_at IS NULL OR retired_at > $3)
        """
    static let all = "SELECT \(keyColumns) FROM signing_keys ORDER BY created_at, id"
    static let retire = "UPDATE signing_keys SET retired_at = $1, remove_after = $2 WHERE id = $3"
    static let deleteRemoved = "DELETE FROM signing_keys WHERE remove_after < $1"

    /// Inserts the row and bumps the keys generation (inside the caller's transaction).
    static func insertKeyRow(_ key: SigningKeyRecord, _ db: any SQLConnection) throws {
        try db.run(insert, [
            key.id, key.algorithm, key.encryptedPrivateKey, key.publicJWK, key.createdAt,
            key.activatesAt, key.retiredAt, key.removeAfter,
        ])
        try SQLGeneration.bump("keys", db)
    }

    /// See `SigningKeyStore.insertKey(_:)`.
    public func insertKey(_ key: SigningKeyRecord) throws {
        try database.transaction { db in try Self.insertKeyRow(key, db) }
    }

    /// See `SigningKeyStore.insertKeyUnlessOneCanSign(_:now:)`: one transaction that holds the
    /// key table's writer lock (`SQLConnection.lock`), so two nodes cannot both find no signing key.
    public func insertKeyUnlessOneCanSign(_ key: SigningKeyRecord, now: Date) throws -> Bool {
        try database.transaction { db in
            try db.lock("signet.signing_keys")
            let signing = try db.query(Self.signing, [key.algorithm, now.addingTimeInterval(SigningKeyRecord.firstKeySkew), now]) {
                try $0.text(0)
            }
            guard signing.isEmpty else { return false }
            try Self.insertKeyRow(key, db)
            return true
        }
    }

    /// See `SigningKeyStore.allKeys()`.
    public func allKeys() throws -> [SigningKeyRecord] {
        try database.read { db in try db.query(Self.all, [], Self.decodeKey) }
    }

    /// See `SigningKeyStore.retireKey(id:retiredAt:removeAfter:)`.
    public func retireKey(id: String, retiredAt: Date, removeAfter: Date) throws {
        try database.transaction { db in
            guard try db.run(Self.retire, [retiredAt, removeAfter, id]) == 1 else { throw StoreError.notFound }
            try SQLGeneration.bump("keys", db)
        }
    }

    /// See `SigningKeyStore.deleteRemovedKeys(now:)`.
    public func deleteRemovedKeys(now: Date) throws -> Int {
        try database.transaction { db in
            let deleted = try db.run(Self.deleteRemoved, [now])
            if deleted > 0 { try SQLGeneration.bump("keys", db) }
            return deleted
        }
    }

    /// See `SigningKeyStore.keysGeneration()`.
    public func keysGeneration() throws -> Int64 {
        try SQLGeneration.read("keys", database)
    }
}
