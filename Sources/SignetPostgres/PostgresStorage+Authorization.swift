import Foundation
import SignetStore

extension PostgresStorage: AuthorizationRequestStore {
    static let pendingColumns = "id_hash, client_id, payload, created_at, expires_at, consumed_at"

    static func decodePending(_ row: PostgresRow) throws -> PendingAuthorizationRecord {
        PendingAuthorizationRecord(
            idHash: try row.blob(0), clientID: try row.text(1), payload: try row.text(2),
            createdAt: try row.date(3), expiresAt: try row.date(4), consumedAt: try row.optionalDate(5))
    }

    /// See `AuthorizationRequestStore.insertPendingAuthorization(_:)`.
    public func insertPendingAuthorization(_ request: PendingAuthorizationRecord) throws {
        try withConnection { db in
            try db.run("INSERT INTO authorization_requests (\(Self.pendingColumns)) VALUES ($1, $2, $3, $4, $5, $6)", [
                request.idHash, request.clientID, request.payload, request.createdAt, request.expiresAt,
                request.consumedAt,
            ])
        }
    }

    /// See `AuthorizationRequestStore.pendingAuthorization(idHash:now:)`.
    public func pendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord? {
        try withConnection { db in
            try db.one("""
                SELECT \(Self.pendingColumns) FROM authorization_requests
                WHERE id_hash = $1 AND consumed_at IS NULL AND expires_at > $2
                """, [idHash, now], Self.decodePending)
        }
    }

    /// See `AuthorizationRequestStore.deletePendingAuthorization(idHash:)`.
    public func deletePendingAuthorization(idHash: [UInt8]) throws -> Bool {
        try withConnection { db in try db.run("DELETE FROM authorization_requests WHERE id_hash = $1", [idHash]) == 1 }
    }

    /// See `AuthorizationRequestStore.consumePendingAuthorization(idHash:now:)`.
    public func consumePendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord? {
        try withConnection { db in
            try db.one("""
                UPDATE authorization_requests SET consumed_at = $1
                WHERE id_hash = $2 AND consumed_at IS NULL AND expires_at > $1
                RETURNING \(Self.pendingColumns)
                """, [now, idHash], Self.decodePending)
        }
    }
}
