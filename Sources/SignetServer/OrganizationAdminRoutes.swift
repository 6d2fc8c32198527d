import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

/// An organization's own admins managing it with their access tokens (`/org/v1/{org}/…`, kind
/// `.api(.bearer)`): a Signet access token for the issuer, of an active grant and an enabled
/// user, holding the scope `organization:admin`, whose user is an `owner` or `admin` of the
/// organization in the path (`OrganizationAdminPolicy`). Members join through invitations only,
/// so an org admin cannot probe which addresses have accounts.
struct OrganizationAdminRoutes: Sendable {
    let tokens: UserAccessTokenCheck
    let environment: ServerEnvironment

    static let members = "/org/v1/{org}/members"
    static let member = "/org/v1/{org}/members/{user}"
    static let invitations = "/org/v1/{org}/invitations"
    static let invitation = "/org/v1/{org}/invitations/{invitation}"
    static let invitationResend = "/org/v1/{org}/invitations/{invitation}/resend"

    /// What a checked call has: the organization, the acting user's membership, the service.
    struct Call {
        let request: HTTPRequest
        let organization: OrganizationRecord
        let actor: OrganizationMemberRecord
        let orgs: Organizations
    }

    /// Runs `body` for an authorized admin of `{org}`; every refusal rendered by `errors`.
    func handle(_ request: HTTPRequest, _ errors: ErrorRenderer, _ body: (Call) throws -> HTTPResponse) -> HTTPResponse {
        do {
            guard let token = try SignetApplication.bearerToken(of: request) else { return errors.missingBearerToken() }
            let checked = try tokens.check(token)
            // RFC 6750 §3.1: a valid token without the scope the resource needs is insufficient_scope (403).
            guard checked.scope.contains(Scope.organizationAdmin) else {
                throw OAuthError(.insufficientScope, "The token lacks the scope \(Scope.organizationAdmin).")
            }
            let orgs = environment.makeOrganizations()
            guard let slug = request.pathParameters["org"], let organization = try orgs.find(slug) else {
                return errors.render(OAuthError(.invalidRequest, "No organization has this id or slug."), status: 404)
            }
            let membership = try environment.storage.organizations.membership(organizationID: organization.id, userID: checked.user.id)
            let actor = try OrganizationAdminPolicy.requireAdmin(membership)
            return try body(Call(request: request, organization: organization, actor: actor, orgs: orgs))
        } catch let error as OAuthError {
            return errors.render(error, status: error.code == .insufficientScope ? 403 : nil)
        } catch let error as OrganizationError {
            return errors.render(OAuthError(Self.code(error), error.description), status: Self.status(error))
        } catch let error as AdminError {
            return errors.render(OAuthError(.invalidRequest, error.description), status: error.status)
        } catch {
            return errors.render(OAuthError.serverError(detail: "org admin: \(error)"))
        }
    }

    static func code(_ error: OrganizationError) -> OAuthErrorCode {
        error.kind == .forbidden ? .accessDenied : .invalidRequest
    }

    static func status(_ error: OrganizationError) -> Int {
        switch error.kind {
        case .invalid: 400
        case .notFound: 404
        case .conflict: 409
        case .forbidden: 403
        }
    }

    // MARK: handlers

    func listMembers(_ call: Call) throws -> HTTPResponse {
        let page = try AdminRequest.page(call.request, filter: false)
        let rows = try environment.storage.organizations.members(organizationID: call.organization.id, limit: page.limit + 1, after: page.cursor)
        let items = Array(rows.prefix(page.limit))
        let next = rows.count > page.limit ? items.last?.userID : nil
        return HTTPResponse.admin(["items": .array(items.map(AdminService.json)), "next_cursor": next.map(JSONValue.string) ?? .null])
    }

    func setRoles(_ call: Call) throws -> HTTPResponse {
        try AdminRequest.noQuery(call.request)
        let userID = try AdminRequest.parameter(call.request, "user")
        let target = try call.orgs.member(call.organization, userID: userID)
        try OrganizationAdminPolicy.checkChange(of: target, by: call.actor)
        let body = try AdminBody(call.request, allowed: ["roles"])
        guard let roles = try body.strings("roles"), !roles.isEmpty else { throw AdminError.invalid("roles", "must be a non-empty array of role names") }
        try OrganizationAdminPolicy.checkGrant(roles, by: call.actor)
        let member = try call.orgs.setRoles(call.organization, userID: userID, roles: roles, actor: call.actor.userID)
        return HTTPResponse.admin(AdminService.json(member))
    }

    func removeMember(_ call: Call) throws -> HTTPResponse {
        try AdminRequest.noQuery(call.request)
        let userID = try AdminRequest.parameter(call.request, "user")
        let target = try call.orgs.member(call.organization, userID: userID)
        try OrganizationAdminPolicy.checkChange(of: target, by: call.actor)
        try call.orgs.removeMember(call.organization, userID: userID, actor: call.actor.userID)
        return HTTPResponse.empty(status: 204)
    }

    func listInvitations(_ call: Call) throws -> HTTPResponse {
        try AdminRequest.noQuery(call.request)
        let now = environment.clock.now
        return HTTPResponse.admin(["items": .array(try call.orgs.invitations(call.organization).map { AdminService.json($0, now: now) })])
    }

    func invite(_ call: Call) throws -> HTTPResponse {
        try AdminRequest.noQuery(call.request)
        let body = try AdminBody(call.request, allowed: ["email", "role"])
        let role = try body.string("role") ?? Organizations.defaultRole
        try OrganizationAdminPolicy.checkGrant([role], by: call.actor)
        let mailer = InvitationMailer(environment: environment)
        let invitation = try call.orgs.invite(call.organization, email: try body.requiredString("email"), role: role,
                                              actor: call.actor.userID, mail: mailer.mail(for: call.organization))
        mailer.notify()
        return HTTPResponse.admin(AdminService.json(invitation, now: environment.clock.now), status: 201)
    }

    func resend(_ call: Call) throws -> HTTPResponse {
        try AdminRequest.noQuery(call.request)
        let invitation = try call.orgs.invitation(call.organization, id: try AdminRequest.parameter(call.request, "invitation"))
        try OrganizationAdminPolicy.checkGrant([invitation.role], by: call.actor)
        let mailer = InvitationMailer(environment: environment)
        let renewed = try call.orgs.resend(invitation, actor: call.actor.userID, mail: mailer.mail(for: call.organization))
        mailer.notify()
        return HTTPResponse.admin(AdminService.json(renewed, now: environment.clock.now))
    }

    func revoke(_ call: Call) throws -> HTTPResponse {
        try AdminRequest.noQuery(call.request)
        let invitation = try call.orgs.invitation(call.organization, id: try AdminRequest.parameter(call.request, "invitation"))
        try call.orgs.revoke(invitation, actor: call.actor.userID)
        return HTTPResponse.empty(status: 204)
    }
}

extension SignetApplication {
    /// The org-admin API's lines of the route table.
    func addOrganizationAdminRoutes(to table: inout RouteTableBuilder, tokens: UserAccessTokenCheck) {
        let routes = OrganizationAdminRoutes(tokens: tokens, environment: environment)
        let lines: [(HTTPMethod, String, @Sendable (OrganizationAdminRoutes, OrganizationAdminRoutes.Call) throws -> HTTPResponse)] = [
            (.GET, OrganizationAdminRoutes.members, { try $0.listMembers($1) }),
            (.PATCH, OrganizationAdminRoutes.member, { try $0.setRoles($1) }),
            (.DELETE, OrganizationAdminRoutes.member, { try $0.removeMember($1) }),
            (.GET, OrganizationAdminRoutes.invitations, { try $0.listInvitations($1) }),
            (.POST, OrganizationAdminRoutes.invitations, { try $0.invite($1) }),
            (.POST, OrganizationAdminRoutes.invitationResend, { try $0.resend($1) }),
            (.DELETE, OrganizationAdminRoutes.invitation, { try $0.revoke($1) }),
        ]
        for (method, path, body) in lines {
            table.add([method], path, .api(.bearer)) { errors in
                // Store work stays off the HTTP threads.
                .async { request in
                    do { return try await BlockingWork.run { routes.handle(request, errors) { try body(routes, $0) } } } catch {
                        return errors.internalError("org admin", error)
                    }
                }
            }
        }
    }
}
