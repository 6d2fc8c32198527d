import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore

/// The admin API's organizations (`/admin/v1/organizations`), their members, roles and
/// invitations. `{id}` is an organization's id or slug.
extension AdminRoutes {
    static let organizations = prefix + "/organizations"
    static let organization = organizations + "/{id}"
    static let organizationMembers = organization + "/members"
    static let organizationMember = organizationMembers + "/{user}"
    static let organizationRoles = organization + "/roles"
    static let organizationRole = organizationRoles + "/{role}"
    static let organizationInvitations = organization + "/invitations"
    static let organizationInvitation = organizationInvitations + "/{invitation}"
    static let organizationInvitationResend = organizationInvitation + "/resend"

    static let orgRead = "admin:orgs:read"
    static let orgWrite = "admin:orgs:write"

    /// The `{id}` organization of a call that takes no query.
    static func organization(_ call: AdminCall) throws -> OrganizationRecord {
        try AdminRequest.noQuery(call.request)
        return try call.service.organization(try AdminRequest.id(call.request))
    }

    /// The `{user}` of a membership path (a user id or email).
    private static func memberUser(_ call: AdminCall) throws -> UserRecord {
        try call.service.userForMembership(try AdminRequest.parameter(call.request, "user"), field: "user")
    }

    /// An operation on the `{id}` organization that takes no query: 404 for an unknown
    /// organization before `body` runs.
    static func orgOperation(_ method: HTTPMethod, _ path: String, _ id: String, _ summary: String, scope: String,
                             requestSchema: String? = nil, success: (status: Int, schema: String?), needsMatch: Bool = false,
                             _ body: @escaping @Sendable (AdminCall, OrganizationRecord) throws -> HTTPResponse) -> AdminOperation {
        AdminOperation(method: method, path: path, operationID: id, summary: summary, scope: scope, requestSchema: requestSchema,
                       success: success, query: [], needsMatch: needsMatch) { call in
            try body(call, try organization(call))
        }
    }

    /// A write to the `{id}` organization, with `If-Match`.
    private static func orgWriteMatched(_ method: HTTPMethod, _ id: String, _ summary: String, requestSchema: String? = nil,
                                        success: (status: Int, schema: String?),
                                        _ body: @escaping @Sendable (AdminCall, OrganizationRecord) throws -> HTTPResponse) -> AdminOperation {
        matchedOperation(method, organization, id, summary, scope: orgWrite, requestSchema: requestSchema, success: success,
                         load: { try $0.organization($1) }, etag: AdminService.etag, body)
    }

    static func organizationOperations() -> [AdminOperation] {
        [
            listOperation(organizations, "listOrganizations", "Organizations ordered by id; `filter` matches the slug or name (case-insensitive).",
                          scope: orgRead, schema: "OrganizationList") { service, page in
                try service.organizations(limit: page.limit, cursor: page.cursor, filter: page.filter)
            },
            createOperation(organizations, "createOrganization",
                            "Creates an organization; `owner` (a user id or email) becomes its first member with the role owner.",
                            scope: orgWrite, requestSchema: "OrganizationCreate", schema: "Organization",
                            fields: ["slug", "name", "logo_url", "owner"]) { call, body in
                let owner = try body.string("owner").map { try call.service.userForMembership($0, field: "owner").id }
                let created = try call.service.mapped {
                    try call.service.organizations.create(slug: try body.requiredString("slug"), name: try body.requiredString("name"),
                                                          logoURL: try body.string("logo_url"), owner: owner, actor: call.service.actor)
                }
                return (created.id, AdminService.json(created), AdminService.etag(created))
            },
            getOperation(organization, "getOrganization", "One organization (by id or slug), with its ETag.", scope: orgRead,
                         schema: "Organization", load: { try $0.organization($1) }, json: AdminService.json, etag: AdminService.etag),
            orgWriteMatched(.PATCH, "updateOrganization", "Changes the members given: slug, name, logo_url (empty removes the logo).",
                            requestSchema: "OrganizationUpdate", success: (200, "Organization")) { call, existing in
                let body = try AdminBody(call.request, allowed: ["slug", "name", "logo_url"])
                let updated = try call.service.mapped {
                    try call.service.organizations.update(existing, slug: try body.string("slug"), name: try body.string("name"),
                                                          logoURL: body.has("logo_url") ? (try body.string("logo_url") ?? "") : nil,
                                                          actor: call.service.actor)
                }
                return HTTPResponse.admin(AdminService.json(updated), etag: AdminService.etag(updated))
            },
            orgWriteMatched(.DELETE, "deleteOrganization", "Deletes the organization with its roles, members and invitations, and revokes every grant family made for it.",
                            success: (204, nil)) { call, existing in
                try call.service.mapped { try call.service.organizations.delete(existing, actor: call.service.actor) }
                return HTTPResponse.empty(status: 204)
            },
        ] + memberOperations() + roleOperations() + invitationOperations()
    }

    private static func memberOperations() -> [AdminOperation] {
        [
            AdminOperation(method: .GET, path: organizationMembers, operationID: "listOrganizationMembers",
                           summary: "The organization's members ordered by user id, with their roles.",
                           scope: orgRead, requestSchema: nil, success: (200, "MemberList"), query: ["limit", "cursor"], needsMatch: false) { call in
                let page = try AdminRequest.page(call.request, filter: false)
                let org = try call.service.organization(try AdminRequest.id(call.request))
                let result = try call.service.members(org, limit: page.limit, cursor: page.cursor)
                return HTTPResponse.admin(["items": .array(result.items), "next_cursor": result.next.map(JSONValue.string) ?? .null])
            },
            orgOperation(.POST, organizationMembers, "addOrganizationMember",
                         "Makes a user (id or email) a member with `roles` (default member). Idempotent: an existing member is answered 200, unchanged.",
                         scope: orgWrite, requestSchema: "MemberAdd", success: (201, "Member")) { call, org in
                let body = try AdminBody(call.request, allowed: ["user_id", "roles"])
                let user = try call.service.userForMembership(try body.requiredString("user_id"))
                let orgs = call.service.organizations
                let added = try call.service.mapped {
                    try orgs.addMember(org, userID: user.id, roles: try body.strings("roles") ?? [], actor: call.service.actor)
                }
                let member = try call.service.mapped { try orgs.member(org, userID: user.id) }
                return HTTPResponse.admin(AdminService.json(member), status: added ? 201 : 200)
            },
            orgOperation(.GET, organizationMember, "getOrganizationMember", "One membership.",
                         scope: orgRead, success: (200, "Member")) { call, org in
                let user = try memberUser(call)
                return HTTPResponse.admin(AdminService.json(try call.service.mapped { try call.service.organizations.member(org, userID: user.id) }))
            },
            orgOperation(.PATCH, organizationMember, "setOrganizationMemberRoles", "Replaces the member's roles.",
                         scope: orgWrite, requestSchema: "MemberRoles", success: (200, "Member")) { call, org in
                let user = try memberUser(call)
                let body = try AdminBody(call.request, allowed: ["roles"])
                guard let roles = try body.strings("roles"), !roles.isEmpty else { throw AdminError.invalid("roles", "must be a non-empty array of role names") }
                let member = try call.service.mapped {
                    try call.service.organizations.setRoles(org, userID: user.id, roles: roles, actor: call.service.actor)
                }
                return HTTPResponse.admin(AdminService.json(member))
            },
            orgOperation(.DELETE, organizationMember, "removeOrganizationMember", "Ends the membership.",
                         scope: orgWrite, success: (204, nil)) { call, org in
                let user = try memberUser(call)
                try call.service.mapped { try call.service.organizations.removeMember(org, userID: user.id, actor: call.service.actor) }
                return HTTPResponse.empty(status: 204)
            },
        ]
    }

    private static func roleOperations() -> [AdminOperation] {
        [
            orgOperation(.GET, organizationRoles, "listOrganizationRoles", "The organization's roles: owner, admin, member, then its own.",
                         scope: orgRead, success: (200, "RoleList")) { call, org in
                return HTTPResponse.admin(["items": .array(try call.service.organizations.roles(org).map(JSONValue.string))])
            },
            orgOperation(.POST, organizationRoles, "addOrganizationRole", "Defines a custom role.",
                         scope: orgWrite, requestSchema: "RoleAdd", success: (201, "RoleList")) { call, org in
                let body = try AdminBody(call.request, allowed: ["name"])
                let orgs = call.service.organizations
                _ = try call.service.mapped { try orgs.addRole(org, try body.requiredString("name"), actor: call.service.actor) }
                return HTTPResponse.admin(["items": .array(try orgs.roles(org).map(JSONValue.string))], status: 201)
            },
            orgOperation(.DELETE, organizationRole, "removeOrganizationRole",
                         "Removes a custom role and takes it from every member holding it.",
                         scope: orgWrite, success: (204, nil)) { call, org in
                let name = try AdminRequest.parameter(call.request, "role")
                try call.service.mapped { try call.service.organizations.removeRole(org, name, actor: call.service.actor) }
                return HTTPResponse.empty(status: 204)
            },
        ]
    }

    private static func invitationOperations() -> [AdminOperation] {
        [
            orgOperation(.GET, organizationInvitations, "listOrganizationInvitations",
                         "The organization's invitations, newest first, with their status (never their link).",
                         scope: orgRead, success: (200, "InvitationList")) { call, org in
                let now = call.environment.clock.now
                return HTTPResponse.admin(["items": .array(try call.service.organizations.invitations(org).map { AdminService.json($0, now: now) })])
            },
            orgOperation(.POST, organizationInvitations, "inviteToOrganization",
                         "Invites an email address with a role (default member): the mail goes through the outbox with a single-use link that works for organizations.invitation_lifetime.",
                         scope: orgWrite, requestSchema: "InvitationCreate", success: (201, "Invitation")) { call, org in
                let body = try AdminBody(call.request, allowed: ["email", "role"])
                let invitation = try call.service.invite(org, email: try body.requiredString("email"), role: try body.string("role"))
                return HTTPResponse.admin(AdminService.json(invitation, now: call.environment.clock.now), status: 201)
            },
            orgOperation(.POST, organizationInvitationResend, "resendOrganizationInvitation",
                         "Sends a pending invitation again with a new link and a new expiry; the old link stops working.",
                         scope: orgWrite, success: (200, "Invitation")) { call, org in
                let renewed = try call.service.resendInvitation(org, id: try AdminRequest.parameter(call.request, "invitation"))
                return HTTPResponse.admin(AdminService.json(renewed, now: call.environment.clock.now))
            },
            orgOperation(.DELETE, organizationInvitation, "revokeOrganizationInvitation",
                         "Revokes a pending invitation: its link stops working.",
                         scope: orgWrite, success: (204, nil)) { call, org in
                let orgs = call.service.organizations
                try call.service.mapped {
                    try orgs.revoke(try orgs.invitation(org, id: try AdminRequest.parameter(call.request, "invitation")), actor: call.service.actor)
                }
                return HTTPResponse.empty(status: 204)
            },
        ]
    }
}
