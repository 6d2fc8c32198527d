import SignetJOSE
import SignetStore

extension AdminService {
    /// The user's console role, or nil.
    func operatorRole(_ user: UserRecord) throws -> OperatorRole? {
        try environment.storage.operatorRoles.operatorRole(userID: user.id).flatMap { OperatorRole(rawValue: $0.role) }
    }

    /// Gives the user the console role `name` (`admin`, `viewer`) or takes it away (`none`);
    /// recorded as `operator_role_changed` with the role before and after.
    public func setOperatorRole(_ user: UserRecord, _ name: String) throws {
        let store = environment.storage.operatorRoles
        let before = try store.operatorRole(userID: user.id)?.role
        // A role hands out its scopes: giving, changing or taking one needs them all.
        try requireHolds((before.flatMap(OperatorRole.init(rawValue:))?.scopes ?? []).union(OperatorRole(rawValue: name)?.scopes ?? []))
        if name == "none" {
            _ = try store.removeOperatorRole(userID: user.id)
        } else {
            guard let role = OperatorRole(rawValue: name) else {
                throw AdminError.invalid("role", "must be admin, viewer or none")
            }
            try store.setOperatorRole(OperatorRoleRecord(userID: user.id, role: role.rawValue, updatedAt: environment.clock.now))
        }
        let after: String? = name == "none" ? nil : name
        audit("operator_role_changed", subject: user.id,
              detail: ["before": .object(["role": before.map(JSONValue.string) ?? .null]), "after": .object(["role": after.map(JSONValue.string) ?? .null])])
    }
}
