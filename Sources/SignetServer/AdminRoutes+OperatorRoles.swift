import Foundation
import SignetHTTP
import SignetJOSE
import SignetStore

/// The admin API's console roles (`/admin/v1/users/{id}/operator-role`), the remote form of
/// `signet users role`. A console role hands out admin scopes, so it has scopes of its own
/// (`admin:operators:read|write`): `admin:users:write` alone cannot make anyone an operator.
extension AdminRoutes {
    static let userOperatorRole = user + "/operator-role"
    static let operatorsRead = "admin:operators:read"
    static let operatorsWrite = "admin:operators:write"

    static func operatorRoleOperations() -> [AdminOperation] {
        [
            AdminOperation(method: .GET, path: userOperatorRole, operationID: "getUserOperatorRole",
                           summary: "The user's console role (admin, viewer, or null for none), with its ETag.",
                           scope: operatorsRead, requestSchema: nil, success: (200, "OperatorRole"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                let held = try call.service.heldOperatorRole(try AdminRequest.id(call.request))
                return HTTPResponse.admin(AdminService.json(held), etag: AdminService.etag(held))
            },
            matchedOperation(.PUT, userOperatorRole, "setUserOperatorRole",
                             "Gives the user the console role admin or viewer, or takes it away (null); audited operator_role_changed.",
                             scope: operatorsWrite, requestSchema: "OperatorRoleSet", success: (200, "OperatorRole"),
                             load: { try $0.heldOperatorRole($1) }, etag: AdminService.etag) { call, held in
                let body = try AdminBody(call.request, allowed: ["role"])
                guard body.has("role") else { throw AdminError.invalid("role", "is required: admin, viewer or null") }
                let name = try body.string("role")
                guard name.map({ OperatorRole(rawValue: $0) != nil }) ?? true else {
                    throw AdminError.invalid("role", "must be admin, viewer or null")
                }
                try call.service.setOperatorRole(held.user, name ?? "none")
                let updated = try call.service.heldOperatorRole(held.user.id)
                return HTTPResponse.admin(AdminService.json(updated), etag: AdminService.etag(updated))
            },
        ]
    }
}

extension AdminService {
    /// A user and the console role it holds (nil: none).
    struct HeldOperatorRole {
        let user: UserRecord
        let role: OperatorRole?
    }

    /// The user `id` (404 if none) with its console role.
    func heldOperatorRole(_ id: String) throws -> HeldOperatorRole {
        let user = try self.user(id)
        return HeldOperatorRole(user: user, role: try operatorRole(user))
    }

    /// `{user_id, role}`.
    static func json(_ held: HeldOperatorRole) -> JSONValue {
        .object(["user_id": .string(held.user.id), "role": held.role.map { .string($0.rawValue) } ?? .null])
    }

    /// The role's strong ETag.
    static func etag(_ held: HeldOperatorRole) -> String { etag(json(held).serialized()) }
}
