import Foundation
import SignetHTTP
import SignetJOSE

/// The OpenAPI 3.1 document of the admin listener, made from the same `AdminOperation` list as
/// its route table, so an operation is in the document exactly when it is served. It names no
/// host (`servers` is the relative `/`), so it is the same on every node: docs/openapi.json is
/// this document (`signet openapi` prints it; a test keeps the file equal).
enum AdminOpenAPI {
    /// The document as pretty-printed JSON with sorted keys.
    static func document(_ operations: [AdminOperation]) -> [UInt8] { AdminJSONText.pretty(value(operations)) }

}

/// JSON for people: the OpenAPI document and `signet … show` with `--admin-url`.
public enum AdminJSONText {
    /// Two-space indented JSON with members sorted as `JSONValue.serialized()` sorts them, and a final newline.
    public static func pretty(_ value: JSONValue) -> [UInt8] {
        var text = ""
        pretty(value, indent: "", into: &text)
        return Array((text + "\n").utf8)
    }

    /// Two-space indented JSON with members sorted, as `JSONValue.serialized()` sorts them.
    static func pretty(_ value: JSONValue, indent: String, into text: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let items) where !items.isEmpty:
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += inner
                pretty(item, indent: inner, into: &text)
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                text += inner + JSONValue.string(key).serializedString() + ": "
                if let member = members[key] { pretty(member, indent: inner, into: &text) }
                text += index == keys.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        default:
            text += value.serializedString()
        }
    }
}

extension AdminOpenAPI {
    static func value(_ operations: [AdminOperation]) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for operation in operations {
            var item = paths[operation.path]?.objectValue ?? [:]
            item[operation.method.rawValue.lowercased()] = self.operation(operation)
            paths[operation.path] = .object(item)
        }
        return .object([
            "openapi": "3.1.0",
            "info": .object([
                "title": "Signet admin API",
                "version": "1",
                "description": .string("""
                    The admin listener of Signet (admin.listen). Every /admin/v1 operation takes a bearer access token from Signet's \
                    own token endpoint: client_credentials by a confidential client, with resource={issuer}/admin/v1 and the \
                    operation's scope. Errors are {error, field, message}. Writes to a client or user need If-Match with its ETag.
                    """),
            ]),
            "servers": [.object(["url": "/"])],
            "paths": .object(paths),
            "components": .object([
                "schemas": .object(schemas),
                "securitySchemes": .object([
                    "adminToken": .object(["type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                                           "description": "An RFC 9068 access token of this Signet for the admin audience."]),
                ]),
            ]),
        ])
    }

    /// The `{name}` parameters of a path, in order.
    private static func pathParameters(_ path: String) -> [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
    }

    private static func ref(_ name: String) -> JSONValue { .object(["$ref": .string("#/components/schemas/\(name)")]) }

    private static func jsonContent(_ schema: String) -> JSONValue {
        .object(["application/json": .object(["schema": ref(schema)])])
    }

    private static func operation(_ operation: AdminOperation) -> JSONValue {
        var object: [String: JSONValue] = ["operationId": .string(operation.operationID), "summary": .string(operation.summary)]
        var parameters: [JSONValue] = []
        for name in pathParameters(operation.path) {
            parameters.append(.object(["name": .string(name), "in": "path", "required": true,
                                       "schema": .object(["type": "string", "minLength": 1, "maxLength": 256])]))
        }
        for name in operation.query {
            let schema: JSONValue = switch name {
            case "limit": .object(["type": "integer", "minimum": 1, "maximum": .int(Int64(AdminService.maximumPageSize))])
            case "since": .object(["type": "string", "format": "date-time"])
            case "filter": .object(["type": "string", "minLength": 0, "maxLength": 256])
            default: .object(["type": "string", "minLength": 1, "maxLength": 256])
            }
            parameters.append(.object(["name": .string(name), "in": "query", "required": false, "schema": schema]))
        }
        if operation.needsMatch {
            parameters.append(.object(["name": "If-Match", "in": "header", "required": true,
                                       "description": "The ETag of the resource as last read.",
                                       "schema": .object(["type": "string"])]))
        }
        if !parameters.isEmpty { object["parameters"] = .array(parameters) }
        if let request = operation.requestSchema {
            object["requestBody"] = .object(["required": true, "content": jsonContent(request)])
        }
        var responses: [String: JSONValue] = [:]
        var success: [String: JSONValue] = ["description": "Success."]
        switch operation.success.schema {
        case nil: break
        case "text": success["content"] = .object(["text/plain": .object(["schema": .object(["type": "string"])])])
        case let schema?: success["content"] = jsonContent(schema)
        }
        if operation.needsMatch || operation.success.status == 201 {
            success["headers"] = .object(["ETag": .object(["schema": .object(["type": "string"]), "description": "The resource's strong ETag."])])
        }
        responses[String(operation.success.status)] = .object(success)
        func error(_ status: Int, _ description: String) {
            responses[String(status)] = .object(["description": .string(description), "content": jsonContent("Error")])
        }
        if operation.operationID == "readyz" {
            responses["503"] = .object(["description": "Not ready: the failing check and why.", "content": jsonContent("Ready")])
        }
        error(400, "Invalid input; `field` names the member, query parameter or header.")
        if let scope = operation.scope {
            object["security"] = [.object(["adminToken": .array([.string(scope)])])]
            error(401, "No token, or one that is invalid, expired, for another audience or not from client_credentials.")
            error(403, "The token lacks the scope \(scope).")
            error(500, "A server error.")
            if !pathParameters(operation.path).isEmpty { error(404, "No such resource.") }
            if operation.requestSchema != nil {
                error(413, "The body is larger than \(AdminBody.maximumBytes) bytes.")
                error(415, "The body is not application/json.")
            }
            if operation.operationID == "createClient" || operation.operationID == "createUser" { error(409, "The id or email is taken.") }
            if operation.path.hasPrefix(AdminRoutes.organizations), operation.method == .POST || operation.method == .PATCH {
                error(409, "Taken (a slug, role name or domain), the invitation is no longer pending, or the domain's proof failed or is missing.")
            }
            if operation.operationID == "verifyOrganizationDomain" { error(503, "The DNS lookup failed; try again later.") }
            if operation.needsMatch {
                error(412, "If-Match does not name the current ETag.")
                error(428, "If-Match is missing.")
            }
        }
        object["responses"] = .object(responses)
        return .object(object)
    }

    private static func string(_ description: String? = nil, nullable: Bool = false) -> JSONValue {
        var object: [String: JSONValue] = ["type": nullable ? ["string", "null"] : "string"]
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    private static let strings: JSONValue = .object(["type": "array", "items": .object(["type": "string"])])
    private static let boolean: JSONValue = .object(["type": "boolean"])
    private static let integer: JSONValue = .object(["type": "integer"])

    private static func object(_ properties: [String: JSONValue], required: [String], closed: Bool = true) -> JSONValue {
        var object: [String: JSONValue] = ["type": "object", "properties": .object(properties),
                                           "required": .array(required.map(JSONValue.string))]
        if closed { object["additionalProperties"] = false }
        return .object(object)
    }

    private static func list(_ item: String) -> JSONValue {
        object(["items": .object(["type": "array", "items": ref(item)]), "next_cursor": string("The cursor of the next page; null on the last.", nullable: true)],
               required: ["items", "next_cursor"])
    }

    private static let clientSettings: [String: JSONValue] = [
        "name": string(), "redirect_uris": strings, "post_logout_redirect_uris": strings, "scope": string("Space-separated."),
        "grant_types": strings, "first_party": boolean, "token_endpoint_auth_method": string(), "id_token_algorithm": string(),
        "access_token_lifetime": integer, "refresh_token_lifetime": integer, "id_token_lifetime": integer,
        "allow_headless": boolean, "resources": strings,
        "application_type": .object(["type": "string", "enum": ["native", "web", "service", "api"],
                                     "description": "Native (mobile and desktop), web, service or API; inferred from the rest when not given."]),
    ]

    private static var schemas: [String: JSONValue] {
        var client = clientSettings
        client["id"] = string()
        client["type"] = .object(["type": "string", "enum": ["public", "confidential"]])
        client["has_secret"] = boolean
        client["created_at"] = string()
        client["updated_at"] = string()
        var create = clientSettings
        create["id"] = string()
        create["type"] = .object(["type": "string", "enum": ["public", "confidential"]])
        let user: [String: JSONValue] = [
            "id": string(), "email": string(), "email_verified": boolean, "has_password": boolean, "disabled": boolean,
            "name": string(nullable: true), "given_name": string(nullable: true), "family_name": string(nullable: true),
            "disabled_at": string(nullable: true), "created_at": string(), "updated_at": string(),
        ]
        let key: [String: JSONValue] = [
            "id": string(), "algorithm": string(), "status": .object(["type": "string", "enum": ["active", "next", "retired", "removed"]]),
            "created_at": string(), "activates_at": string(), "retired_at": string(nullable: true), "remove_after": string(nullable: true),
        ]
        let session: [String: JSONValue] = [
            "id": string(), "created_at": string(), "last_seen_at": string(), "idle_expires_at": string(), "expires_at": string(),
            "auth_time": string(), "amr": strings,
        ]
        let grant: [String: JSONValue] = [
            "id": string(), "client": string(), "scope": string(), "created_at": string(), "expires_at": string(), "auth_time": string(),
            "amr": strings, "resources": strings, "session": string("The public id of the session it was signed in through.", nullable: true),
        ]
        let connection: [String: JSONValue] = [
            "id": string(), "type": string(), "display_name": string(), "enabled": boolean, "issuer": string(), "client_id": string(),
            "callback_url": string("The redirect URI to register at the provider."),
            "status": .object(["type": "string", "enum": ["ok", "failing", "unused", "disabled", "native_only"]]),
            "last_success_at": string(nullable: true),
            "last_error": .object(["oneOf": [object(["at": string(), "reason": string(), "message": string()], required: ["at", "reason", "message"]),
                                             .object(["type": "null"])]]),
        ]
        return [
            "Error": object(["error": string(), "field": string(), "message": string()], required: ["error", "message"]),
            "Health": object(["status": string()], required: ["status"]),
            "Ready": object(["status": string(), "check": string(), "reason": string()], required: ["status"]),
            "OpenAPI": .object(["type": "object"]),
            "Client": object(client, required: ["id", "name", "type", "application_type", "has_secret", "token_endpoint_auth_method", "grant_types", "scope",
                                                "redirect_uris", "post_logout_redirect_uris", "resources", "first_party", "allow_headless",
                                                "id_token_algorithm", "created_at", "updated_at"]),
            "ClientList": list("Client"),
            "ClientCreate": object(create, required: ["id"]),
            "ClientUpdate": object(clientSettings, required: []),
            "ClientCreated": object(["client": ref("Client"), "client_secret": string("Shown once; null for a public client.", nullable: true)],
                                    required: ["client", "client_secret"]),
            "ClientSecret": object(["client_secret": string("Shown once.")], required: ["client_secret"]),
            "User": object(user, required: Array(user.keys).sorted()),
            "UserList": list("User"),
            "UserCreate": object(["email": string(), "name": string(), "password": string()], required: ["email"]),
            "UserUpdate": object(["name": string(), "given_name": string(), "family_name": string(), "email_verified": boolean], required: []),
            "RevokeResult": object(["sessions": integer, "grants": integer], required: ["sessions", "grants"]),
            "UnlockResult": object(["unlocked": boolean], required: ["unlocked"]),
            "Key": object(key, required: Array(key.keys).sorted()),
            "KeyList": object(["items": .object(["type": "array", "items": ref("Key")])], required: ["items"]),
            "KeyRotate": object(["algorithm": string(), "prepublish_seconds": integer], required: []),
            "KeyRetired": object(["replacement": .object(["oneOf": [ref("Key"), .object(["type": "null"])]])], required: ["replacement"]),
            "AuditEvent": object(["sequence": integer, "event": string(), "at": string(), "actor": string(nullable: true),
                                  "subject": string(nullable: true), "client": string(nullable: true),
                                  "address": string(nullable: true), "user_agent": string(nullable: true),
                                  "method": string(nullable: true), "reason": string(nullable: true),
                                  "detail": .object(["type": "object"])],
                                 required: ["sequence", "event", "at", "actor", "subject", "client", "address", "user_agent",
                                            "method", "reason", "detail"]),
            "AuditList": list("AuditEvent"),
            "Session": object(session, required: Array(session.keys).sorted()),
            "SessionList": list("Session"),
            "Grant": object(grant, required: Array(grant.keys).sorted()),
            "GrantList": list("Grant"),
            "SecondFactors": object(["totp": .object(["type": "string", "enum": ["none", "pending", "confirmed"]]), "recovery_codes": integer],
                                    required: ["totp", "recovery_codes"]),
            "Consent": object(["client": string(), "scopes": strings, "granted_at": string()], required: ["client", "scopes", "granted_at"]),
            "ConsentList": list("Consent"),
            "Connection": object(connection, required: Array(connection.keys).sorted()),
            "ConnectionList": list("Connection"),
        ].merging(organizationSchemas) { first, _ in first }.merging(domainSchemas) { first, _ in first }
    }

    private static var domainSchemas: [String: JSONValue] {
        let domain: [String: JSONValue] = [
            "domain": string("Normalized: lowercase, an international domain as its A-label."), "organization_id": string(),
            "verified": .object(["type": "boolean"]), "verified_at": string(nullable: true),
            "verified_by": .object(["type": ["string", "null"], "enum": ["dns", "operator", .null]]),
            "connection_id": string(nullable: true), "policy": .object(["type": "string", "enum": ["optional", "sso_required"]]),
            "txt_record": object(["name": string(), "value": string()], required: ["name", "value"]),
            "created_at": string(),
        ]
        return [
            "Domain": object(domain, required: Array(domain.keys).sorted()),
            "DomainList": object(["items": .object(["type": "array", "items": ref("Domain")])], required: ["items"]),
            "DomainClaim": object(["domain": string()], required: ["domain"]),
            "DomainVerify": object(["method": .object(["type": "string", "enum": ["dns", "operator"]])], required: []),
            "DomainBind": object(["connection_id": string(), "policy": .object(["type": "string", "enum": ["optional", "sso_required"]])],
                                 required: ["connection_id"]),
        ]
    }

    private static var organizationSchemas: [String: JSONValue] {
        let organization: [String: JSONValue] = [
            "id": string(), "slug": string(), "name": string(), "logo_url": string(nullable: true),
            "created_at": string(), "updated_at": string(),
        ]
        let member: [String: JSONValue] = ["user_id": string(), "roles": strings, "created_at": string()]
        let invitation: [String: JSONValue] = [
            "id": string(), "organization_id": string(), "email": string(), "role": string(),
            "status": .object(["type": "string", "enum": ["pending", "accepted", "revoked", "expired"]]),
            "created_at": string(), "expires_at": string(), "accepted_at": string(nullable: true),
            "revoked_at": string(nullable: true), "invited_by": string(nullable: true),
        ]
        return [
            "Organization": object(organization, required: Array(organization.keys).sorted()),
            "OrganizationList": list("Organization"),
            "OrganizationCreate": object(["slug": string(), "name": string(), "logo_url": string(), "owner": string("A user id or email.")],
                                         required: ["slug", "name"]),
            "OrganizationUpdate": object(["slug": string(), "name": string(), "logo_url": string("Empty removes the logo.")], required: []),
            "Member": object(member, required: Array(member.keys).sorted()),
            "MemberList": list("Member"),
            "MemberAdd": object(["user_id": string("A user id or email."), "roles": strings], required: ["user_id"]),
            "MemberRoles": object(["roles": strings], required: ["roles"]),
            "RoleList": object(["items": strings], required: ["items"]),
            "RoleAdd": object(["name": string()], required: ["name"]),
            "Invitation": object(invitation, required: Array(invitation.keys).sorted()),
            "InvitationList": object(["items": .object(["type": "array", "items": ref("Invitation")])], required: ["items"]),
            "InvitationCreate": object(["email": string(), "role": string()], required: ["email"]),
            "OperatorRole": object(["user_id": string(), "role": .object(["type": ["string", "null"], "enum": ["admin", "viewer", .null]])],
                                   required: ["user_id", "role"]),
            "OperatorRoleSet": object(["role": .object(["type": ["string", "null"], "enum": ["admin", "viewer", .null]])], required: ["role"]),
        ]
    }
}

extension SignetApplication {
    /// The admin listener's OpenAPI document (docs/openapi.json).
    public static func adminOpenAPIDocument() -> [UInt8] { AdminOpenAPI.document(AdminRoutes.operations) }
}
