import Foundation
import SignetMacros

/// A user's role in the console (`operator_roles`): which admin scopes a console sign-in of that
/// user may use. A user without a row has no console access at all.
@MemberwiseInit
public struct OperatorRoleRecord: Sendable, Equatable {
    /// The user.
    public var userID: String
    /// The role's name (`admin`, `viewer`; SignetServer's `OperatorRole` reads it).
    public var role: String
    /// When it was last set.
    public var updatedAt: Date
}

/// Operator roles, one per user; the row goes with its user (ON DELETE CASCADE).
public protocol OperatorRoleStore: Sendable {
    /// The user's role, or nil.
    func operatorRole(userID: String) throws -> OperatorRoleRecord?

    /// Gives the user `role`, replacing any role it had.
    func setOperatorRole(_ record: OperatorRoleRecord) throws

    /// Takes the user's role away; false when it had none.
    func removeOperatorRole(userID: String) throws -> Bool

    /// Every user with a role, ordered by user id.
    func operatorRoles() throws -> [OperatorRoleRecord]
}
