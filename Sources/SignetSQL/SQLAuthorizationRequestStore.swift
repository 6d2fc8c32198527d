import Foundation
import SignetStore

/// Pending `/authorize` requests over a SQL database (`authorization_requests`).
public struct SQLAuthorizationRequestStore: AuthorizationRequestStore {
    let database: any SQLDatabase

    static let pendingColumns = "id_hash, client_id, payload, created_at, expires_at, consumed_at"

    static func decodePending(_ row: any SQLRow) throws -> PendingAuthorizationRecord {
        PendingAuthorizationRecord(
            idHash: try row.blob(0), clientID: try row.text(1), payload: try row.text(2),
            createdAt: try row.date(3), expiresAt: try row.date(4), consumedAt: try row.optionalDate(5))
    }

    static let insert = SQLTemplate.insert(into: "authorization_requests", pendingColumns)
    static let live = """
        SELECT \(pendingColumns) FROM authorization_requests
        WHERE id_hash = $1 AND consumed_at IS NULL AND expires_at > $2
        """
    static let delete = "DELETE FROM authorization_requests WHERE id_hash = $1"
    /// Single use is this one statement: of racing calls exactly one matches the row.
    static let consume = """
        UPDATE authorization_requests SET consumed_at = $1
        WHERE id_hash = $2 AND consumed_at IS NULL AND expires_at > $1
        RETURNING \(pendingColumns)
        """

    /// See `AuthorizationRequestStore.insertPendingAuthorization(_:)`.
    public func insertPendingAuthorization(_ request: PendingAuthorizationRecord) throws {
        try database.write { db in
            try db.run(Self.insert, [
                request.idHash, request.clientID, request.payload, request.createdAt, request.expiresAt, request.consumedAt,
            ])
        }
    }

    /// See `AuthorizationRequestStore.pendingAuthorization(idHash:now:)`.
    public func pendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord? {
        try database.read { db in try db.one(Self.live, [idHash, now], Self.decodePending) }
    }

    /// See `AuthorizationRequestStore.deletePendingAuthorization(idHash:)`.
    public func deletePendingAuthorization(idHash: [UInt8]) throws -> Bool {
        try database.write { db in try db.run(Self.delete, [idHash]) == 1 }
    }

    /// See `AuthorizationRequestStore.consumePendingAuthorization(idHash:now:)`.
    public func consumePendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord? {
        try database.write { db in try db.one(Self.consume, [now, idHash], Self.decodePending) }
    }
}
