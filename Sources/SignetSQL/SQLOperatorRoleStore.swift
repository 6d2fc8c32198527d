import Foundation
import SignetStore

/// Operator roles over a SQL database (`operator_roles`, migration 11).
public struct SQLOperatorRoleStore: OperatorRoleStore {
    let database: any SQLDatabase

    static let byUser = "SELECT user_id, role, updated_at FROM operator_roles WHERE user_id = $1"
    static let upsert = """
        INSERT INTO operator_roles (user_id, role, updated_at) VALUES ($1, $2, $3)
        ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at
        """
    static let delete = "DELETE FROM operator_roles WHERE user_id = $1"
    static let everyone = "SELECT user_id, role, updated_at FROM operator_roles ORDER BY user_id"

    static func decode(_ row: any SQLRow) throws -> OperatorRoleRecord {
        OperatorRoleRecord(userID: try row.text(0), role: try row.text(1), updatedAt: try row.date(2))
    }

    /// See `OperatorRoleStore.operatorRole(userID:)`.
    public func operatorRole(userID: String) throws -> OperatorRoleRecord? {
        try database.read { db in try db.one(Self.byUser, [userID], Self.decode) }
    }

    /// See `OperatorRoleStore.setOperatorRole(_:)`.
    public func setOperatorRole(_ record: OperatorRoleRecord) throws {
        try database.write { db in _ = try db.run(Self.upsert, [record.userID, record.role, record.updatedAt]) }
    }

    /// See `OperatorRoleStore.removeOperatorRole(userID:)`.
    public func removeOperatorRole(userID: String) throws -> Bool {
        try database.write { db in try db.run(Self.delete, [userID]) > 0 }
    }

    /// See `OperatorRoleStore.operatorRoles()`.
    public func operatorRoles() throws -> [OperatorRoleRecord] {
        try database.read { db in try db.query(Self.everyone, [], Self.decode) }
    }
}
