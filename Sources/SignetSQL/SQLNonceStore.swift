import Foundation
import SignetStore

/// One-time login nonces over a SQL database (`nonces`).
public struct SQLNonceStore: NonceStore {
    let database: any SQLDatabase

    static let insert = SQLTemplate.insert(into: "nonces", "nonce_hash, client_id, created_at, expires_at")
    /// Single use is this one statement: of racing calls exactly one matches the row.
    static let consume = """
        UPDATE nonces SET consumed_at = $1
        WHERE nonce_hash = $2 AND client_id = $3 AND consumed_at IS NULL AND expires_at > $1
        RETURNING 1
        """

    /// See `NonceStore.insertNonce(nonceHash:clientID:createdAt:expiresAt:)`.
    public func insertNonce(nonceHash: [UInt8], clientID: String, createdAt: Date, expiresAt: Date) throws {
        try database.write { db in try db.run(Self.insert, [nonceHash, clientID, createdAt, expiresAt]) }
    }

    /// See `NonceStore.consumeNonce(nonceHash:clientID:now:)`.
    public func consumeNonce(nonceHash: [UInt8], clientID: String, now: Date) throws -> Bool {
        try database.write { db in try db.one(Self.consume, [now, nonceHash, clientID]) { _ in true } ?? false }
    }
}
