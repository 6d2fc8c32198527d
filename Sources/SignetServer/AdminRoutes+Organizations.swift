import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore

/// The admin API's organizations (`/admin/v1/organizations`), their members, roles and
/// invitations. `{id}` is an organization's id or slug.
extension AdminRoutes {
    static let organizations = "/admin/v1/organizations"
    static let organization = "/admin/v1/organizations/{id}"
    static let organizationMembers = "/admin/v1/organizations/{id}/members"
    static let organizationMember = "/admin/v1/organizations/{id}/members/{user}"
    static let organizationRoles = "/admin/v1/organizations/{id}/roles"
    static let organizationRole = "/admin/v1/organizations/{id}/roles/{role}"
    static let organizationInvitations = "/admin/v1/organizations/{id}/invitations"
    static let organizationInvitation = "/admin/v1/organizations/{id}/invitations/{invitation}"
    static let organizationInvitationResend = "/admin/v1/organizations/{id}/invitations/{invitation}/resend"

    static let orgRead = "admin:orgs:read"
    static let orgWrite = "admin:orgs:write"

    /// The `{id}` organization of a call that takes no query.
    static func organization(_ call: AdminCall) throws -> OrganizationRecord {
        try AdminRequest.noQuery(call.request)
        return try call.service.organization(try AdminRequest.id(call.request))
    }

    static func organizationOperations() -> [AdminOperation] {
        [
            listOperation(organizations, "listOrganizations", "Organizations ordered by id; `filter` matches the slug or name (case-insensitive).",
                          scope: orgRead, schema: "OrganizationList") { service, page in
                try service.organizations(limit: page.limit, cursor: page.cursor, filter: page.filter)
            },
            AdminOperation(method: .POST, path: organizations, operationID: "createOrganization",
                           summary: "Creates an organization; `owner` (a user id or email) becomes its first member with the role owner.",
                           scope: orgWrite, requestSchema: "OrganizationCreate", success: (201, "Organization"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                let body = try AdminBody(call.request, allowed: ["slug", "name", "logo_url", "owner"])
                let owner = try body.string("owner").map { try call.service.userForMembership($0, field: "owner").id }
                let created = try call.service.mapped {
                    try call.service.organizations.create(slug: try body.requiredString("slug"), name: try body.requiredString("name"),
                                                          logoURL: try body.string("logo_url"), owner: owner, actor: call.service.actor)
                }
                var response = HTTPResponse.admin(AdminService.json(created), status: 201, etag: AdminService.etag(created))
                response.headers.set("Location", "/admin/v1/organizations/\(created.id)")
                return response
            },
            getOperation(organization, "getOrganization", "One organization (by id or slug), with its ETag.", scope: orgRead,
                         schema: "Organization", load: { try $0.organization($1) }, json: AdminService.json, etag: AdminService.etag),
            AdminOperation(method: .PATCH, path: organization, operationID: "updateOrganization",
                           summary: "Changes the members given: slug, name, logo_url (empty removes the logo).",
                           scope: orgWrite, requestSchema: "OrganizationUpdate", success: (200, "Organization"), query: [], needsMatch: true) { call in
                let existing = try call.matched({ try $0.organization($1) }, etag: AdminService.etag)
                let body = try AdminBody(call.request, allowed: ["slug", "name", "logo_url"])
                let updated = try call.service.mapped {
                    try call.service.organizations.update(existing, slug: try body.string("slug"), name: try body.string("name"),
                                                          logoURL: body.has("logo_url") ? (try body.string("logo_url") ?? "") : nil,
                                                          actor: call.service.actor)
                }
                return HTTPResponse.admin(AdminService.json(updated), etag: AdminService.etag(updated))
            },
            AdminOperation(method: .DELETE, path: organization, operationID: "deleteOrganization",
                           summary: "Deletes the organization with its roles, members and invitations.",
                           scope: orgWrite, requestSchema: nil, success: (204, nil), query: [], needsMatch: true) { call in
                let existing = try call.matched({ try $0.organization($1) }, etag: AdminService.etag)
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
            AdminOperation(method: .POST, path: organizationMembers, operationID: "addOrganizationMember",
                           summary: "Makes a user (id or email) a member with `roles` (default member). Idempotent: an existing member is answered 200, unchanged.",
                           scope: orgWrite, requestSchema: "MemberAdd", success: (201, "Member"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let body = try AdminBody(call.request, allowed: ["user_id", "roles"])
                let user = try call.service.userForMembership(try body.requiredString("user_id"))
                let orgs = call.service.organizations
                let added = try call.service.mapped {
                    try orgs.addMember(org, userID: user.id, roles: try body.strings("roles") ?? [], actor: call.service.actor)
                }
                let member = try call.service.mapped { try orgs.member(org, userID: user.id) }
                return HTTPResponse.admin(AdminService.json(member), status: added ? 201 : 200)
            },
            AdminOperation(method: .GET, path: organizationMember, operationID: "getOrganizationMember", summary: "One membership.",
                           scope: orgRead, requestSchema: nil, success: (200, "Member"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let user = try call.service.userForMembership(try AdminRequest.parameter(call.request, "user"), field: "user")
                return HTTPResponse.admin(AdminService.json(try call.service.mapped { try call.service.organizations.member(org, userID: user.id) }))
            },
            AdminOperation(method: .PATCH, path: organizationMember, operationID: "setOrganizationMemberRoles",
                           summary: "Replaces the member's roles.",
                           scope: orgWrite, requestSchema: "MemberRoles", success: (200, "Member"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let user = try call.service.userForMembership(try AdminRequest.parameter(call.request, "user"), field: "user")
                let body = try AdminBody(call.request, allowed: ["roles"])
                guard let roles = try body.strings("roles"), !roles.isEmpty else { throw AdminError.invalid("roles", "must be a non-empty array of role names") }
                let member = try call.service.mapped {
                    try call.service.organizations.setRoles(org, userID: user.id, roles: roles, actor: call.service.actor)
                }
                return HTTPResponse.admin(AdminService.json(member))
            },
            AdminOperation(method: .DELETE, path: organizationMember, operationID: "removeOrganizationMember", summary: "Ends the membership.",
                           scope: orgWrite, requestSchema: nil, success: (204, nil), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let user = try call.service.userForMembership(try AdminRequest.parameter(call.request, "user"), field: "user")
                try call.service.mapped { try call.service.organizations.removeMember(org, userID: user.id, actor: call.service.actor) }
                return HTTPResponse.empty(status: 204)
            },
        ]
    }

    private static func roleOperations() -> [AdminOperation] {
        [
            AdminOperation(method: .GET, path: organizationRoles, operationID: "listOrganizationRoles",
                           summary: "The organization's roles: owner, admin, member, then its own.",
                           scope: orgRead, requestSchema: nil, success: (200, "RoleList"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                return HTTPResponse.admin(["items": .array(try call.service.organizations.roles(org).map(JSONValue.string))])
            },
            AdminOperation(method: .POST, path: organizationRoles, operationID: "addOrganizationRole", summary: "Defines a custom role.",
                           scope: orgWrite, requestSchema: "RoleAdd", success: (201, "RoleList"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let body = try AdminBody(call.request, allowed: ["name"])
                let orgs = call.service.organizations
                _ = try call.service.mapped { try orgs.addRole(org, try body.requiredString("name"), actor: call.service.actor) }
                return HTTPResponse.admin(["items": .array(try orgs.roles(org).map(JSONValue.string))], status: 201)
            },
            AdminOperation(method: .DELETE, path: organizationRole, operationID: "removeOrganizationRole",
                           summary: "Removes a custom role and takes it from every member holding it.",
                           scope: orgWrite, requestSchema: nil, success: (204, nil), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let name = try AdminRequest.parameter(call.request, "role")
                try call.service.mapped { try call.service.organizations.removeRole(org, name, actor: call.service.actor) }
                return HTTPResponse.empty(status: 204)
            },
        ]
    }

    private static func invitationOperations() -> [AdminOperation] {
        [
            AdminOperation(method: .GET, path: organizationInvitations, operationID: "listOrganizationInvitations",
                           summary: "The organization's invitations, newest first, with their status (never their link).",
                           scope: orgRead, requestSchema: nil, success: (200, "InvitationList"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let now = call.environment.clock.now
                return HTTPResponse.admin(["items": .array(try call.service.organizations.invitations(org).map { AdminService.json($0, now: now) })])
            },
            AdminOperation(method: .POST, path: organizationInvitations, operationID: "inviteToOrganization",
                           summary: "Invites an email address with a role (default member): the mail goes through the outbox with a single-use link that works for organizations.invitation_lifetime.",
                           scope: orgWrite, requestSchema: "InvitationCreate", success: (201, "Invitation"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let body = try AdminBody(call.request, allowed: ["email", "role"])
                let invitation = try call.service.invite(org, email: try body.requiredString("email"), role: try body.string("role"))
                return HTTPResponse.admin(AdminService.json(invitation, now: call.environment.clock.now), status: 201)
            },
            AdminOperation(method: .POST, path: organizationInvitationResend, operationID: "resendOrganizationInvitation",
                           summary: "Sends a pending invitation again with a new link and a new expiry; the old link stops working.",
                           scope: orgWrite, requestSchema: nil, success: (200, "Invitation"), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let renewed = try call.service.resendInvitation(org, id: try AdminRequest.parameter(call.request, "invitation"))
                return HTTPResponse.admin(AdminService.json(renewed, now: call.environment.clock.now))
            },
            AdminOperation(method: .DELETE, path: organizationInvitation, operationID: "revokeOrganizationInvitation",
                           summary: "Revokes a pending invitation: its link stops working.",
                           scope: orgWrite, requestSchema: nil, success: (204, nil), query: [], needsMatch: false) { call in
                let org = try organization(call)
                let orgs = call.service.organizations
                try call.service.mapped {
                    try orgs.revoke(try orgs.invitation(org, id: try AdminRequest.parameter(call.request, "invitation")), actor: call.service.actor)
                }
                return HTTPResponse.empty(status: 204)
            },
        ]
    }
}
