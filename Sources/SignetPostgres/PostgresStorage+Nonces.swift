import Foundation
import SignetStore

extension PostgresStorage: NonceStore {
    /// See `NonceStore.insertNonce(nonceHash:clientID:createdAt:expiresAt:)`.
    public func insertNonce(nonceHash: [UInt8], clientID: String, createdAt: Date, expiresAt: Date) throws {
        try withConnection { db in
            try db.run("INSERT INTO nonces (nonce_hash, client_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                       [nonceHash, clientID, createdAt, expiresAt])
        }
    }

    /// See `NonceStore.consumeNonce(nonceHash:clientID:now:)`.
    public func consumeNonce(nonceHash: [UInt8], clientID: String, now: Date) throws -> Bool {
        try withConnection { db in
            try db.one("""
                UPDATE nonces SET consumed_at = $1
                WHERE nonce_hash = $2 AND client_id = $3 AND consumed_at IS NULL AND expires_at > $1
                RETURNING 1
                """, [now, nonceHash, clientID]) { _ in true } ?? false
        }
    }
}
