import Foundation
import SignetCore
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// `/admin/v1/organizations` over real HTTP: the life cycle of an organization, its members,
/// roles and invitations, each refusal with its status, `error` and field, and nothing changed by one.
@Suite(.endToEndLimit) struct OrganizationAdminAPITests {
    /// A client_credentials token with the organization scopes (client `orgops`).
    static func token(_ fixture: AdminFixture, scopes: [String] = ["admin:orgs:read", "admin:orgs:write"]) async throws -> String {
        let registration = ClientRegistration(server: fixture.server.application.authorizationServer)
        let id = "orgops-\(scopes.count)"
        let secret = try registration.register(ClientSpec(id: id, isPublic: false, scope: scopes.joined(separator: " "),
                                                          grantTypes: ["client_credentials"], allowedResources: [fixture.audience])).secret ?? ""
        let response = try await fixture.client.post(
            fixture.server.url(Routes.token),
            form: [("grant_type", "client_credentials"), ("scope", scopes.joined(separator: " ")), ("resource", fixture.audience)],
            headers: APIFixture.basic(id, secret))
        guard response.status == 200, let token = try response.json()["access_token"]?.stringValue else {
            throw TestingError("no admin token: \(response)")
        }
        return token
    }

    @Test func organizationLifecycleAndRefusals() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await Self.token(fixture)
        let store = fixture.server.environment.storage.organizations
        let base = "/admin/v1/organizations"

        // Bad input: nothing is created.
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "Acme Corp", "name": "Acme"]), 400, "invalid_request", field: "slug")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "a", "name": "Acme"]), 400, "invalid_request", field: "slug")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "acme", "name": " "]), 400, "invalid_request", field: "name")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "acme", "name": "Acme", "logo_url": "http://x.example/l.png"]),
                         400, "invalid_request", field: "logo_url")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "acme"]), 400, "invalid_request", field: "name")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "acme", "name": "Acme", "plan": "gold"]),
                         400, "invalid_request", field: "plan")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "acme", "name": "Acme", "owner": "nobody@example.com"]),
                         404, "not_found", field: "owner")
        #expect(try store.organizations(limit: 10, after: nil).isEmpty)
        // Scope: a read-only token cannot write; a token without org scopes cannot read.
        let reader = try await Self.token(fixture, scopes: ["admin:orgs:read"])
        expectAdminError(try await fixture.call("POST", base, token: reader, json: ["slug": "acme", "name": "Acme"]), 403, "insufficient_scope")
        let other = try await fixture.token(["admin:users:read"], client: "viewer")
        expectAdminError(try await fixture.call("GET", base, token: other), 403, "insufficient_scope")
        #expect(try store.organizations(limit: 10, after: nil).isEmpty)

        // Create, with an owner.
        let owner = try fixture.server.environment.makeUserService().create(email: "ada@example.com", password: nil)
        let created = try await fixture.call("POST", base, token: token,
                                             json: ["slug": "acme", "name": "Acme Corp", "owner": "ada@example.com"])
        #expect(created.status == 201, "\(created)")
        let org = try created.json()
        let id = try #require(org["id"]?.stringValue)
        #expect(id.hasPrefix("org_"))
        #expect(created.header("Location") == "\(base)/\(id)")
        #expect(try store.membership(organizationID: id, userID: owner.id)?.roles == ["owner"])
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["slug": "acme", "name": "Other"]), 409, "conflict", field: "slug")

        // Read by id and by slug; list and filter.
        let byID = try await fixture.call("GET", "\(base)/\(id)", token: reader)
        let bySlug = try await fixture.call("GET", "\(base)/acme", token: reader)
        #expect(byID.status == 200 && bySlug.status == 200)
        #expect(byID.header("ETag") == bySlug.header("ETag"))
        expectAdminError(try await fixture.call("GET", "\(base)/nope", token: reader), 404, "not_found")
        _ = try await fixture.call("POST", base, token: token, json: ["slug": "beta", "name": "Beta"])
        let filtered = try await fixture.call("GET", "\(base)?filter=acm", token: reader)
        #expect(try filtered.json()["items"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == ["acme"])
        let page = try await fixture.call("GET", "\(base)?limit=1", token: reader)
        #expect(try page.json()["items"]?.arrayValue?.count == 1)
        let cursor = try #require(try page.json()["next_cursor"]?.stringValue)
        let next = try await fixture.call("GET", "\(base)?limit=1&cursor=\(cursor)", token: reader)
        #expect(try next.json()["items"]?.arrayValue?.count == 1)
        #expect(try next.json()["next_cursor"] == .null)

        // Update with If-Match.
        let etag = try #require(byID.header("ETag"))
        expectAdminError(try await fixture.call("PATCH", "\(base)/\(id)", token: token, json: ["name": "Acme"]), 428, "precondition_required")
        expectAdminError(try await fixture.call("PATCH", "\(base)/\(id)", token: token, json: ["name": "Acme"], headers: ["If-Match": "\"stale\""]),
                         412, "precondition_failed")
        expectAdminError(try await fixture.call("PATCH", "\(base)/\(id)", token: token, json: ["slug": "beta"], headers: ["If-Match": etag]),
                         409, "conflict", field: "slug")
        #expect(try store.organization(id: id)?.slug == "acme")
        let patched = try await fixture.call("PATCH", "\(base)/\(id)", token: token,
                                             json: ["name": "Acme Inc", "logo_url": "https://acme.example/logo.png"], headers: ["If-Match": etag])
        #expect(patched.status == 200, "\(patched)")
        #expect(try patched.json()["name"]?.stringValue == "Acme Inc")
        #expect(patched.header("ETag") != etag)

        // Delete with If-Match; audited.
        let betaETag = try #require(try await fixture.call("GET", "\(base)/beta", token: reader).header("ETag"))
        expectAdminError(try await fixture.call("DELETE", "\(base)/beta", token: token), 428, "precondition_required")
        #expect(try await fixture.call("DELETE", "\(base)/beta", token: token, headers: ["If-Match": betaETag]).status == 204)
        #expect(try store.organization(slug: "beta") == nil)
        let events = try fixture.server.environment.storage.audit.recentAudit(limit: 50).map(\.event)
        for event in ["organization_created", "organization_updated", "organization_deleted", "organization_member_added"] {
            #expect(events.contains(event), "\(event)")
        }
    }

    @Test func membersRolesAndInvitations() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await Self.token(fixture)
        let environment = fixture.server.environment
        let store = environment.storage.organizations
        let orgs = environment.makeOrganizations()
        let org = try orgs.create(slug: "acme", name: "Acme")
        let ada = try environment.makeUserService().create(email: "ada@example.com", password: nil)
        let base = "/admin/v1/organizations/acme"

        // Roles: built-in ones listed, a custom one added, a built-in one cannot be added or removed.
        expectAdminError(try await fixture.call("POST", "\(base)/roles", token: token, json: ["name": "Billing Team"]), 400, "invalid_request", field: "name")
        expectAdminError(try await fixture.call("POST", "\(base)/roles", token: token, json: ["name": "admin"]), 409, "conflict", field: "name")
        let role = try await fixture.call("POST", "\(base)/roles", token: token, json: ["name": "billing"])
        #expect(role.status == 201, "\(role)")
        #expect(try role.json()["items"]?.arrayValue?.compactMap { $0.stringValue } == ["owner", "admin", "member", "billing"])
        expectAdminError(try await fixture.call("DELETE", "\(base)/roles/owner", token: token), 400, "invalid_request", field: "name")

        // Members: unknown user and unknown role refused; adding is idempotent.
        expectAdminError(try await fixture.call("POST", "\(base)/members", token: token, json: ["user_id": "nobody"]), 404, "not_found", field: "user_id")
        expectAdminError(try await fixture.call("POST", "\(base)/members", token: token, json: ["user_id": .string(ada.id), "roles": ["wizard"]]),
                         400, "invalid_request", field: "roles")
        #expect(try store.membership(organizationID: org.id, userID: ada.id) == nil)
        let added = try await fixture.call("POST", "\(base)/members", token: token, json: ["user_id": "ada@example.com", "roles": ["billing"]])
        #expect(added.status == 201, "\(added)")
        let again = try await fixture.call("POST", "\(base)/members", token: token, json: ["user_id": .string(ada.id), "roles": ["admin"]])
        #expect(again.status == 200)
        #expect(try again.json()["roles"]?.arrayValue?.compactMap { $0.stringValue } == ["billing"])
        let listed = try await fixture.call("GET", "\(base)/members", token: token)
        #expect(try listed.json()["items"]?.arrayValue?.compactMap { $0["user_id"]?.stringValue } == [ada.id])
        let set = try await fixture.call("PATCH", "\(base)/members/\(ada.id)", token: token, json: ["roles": ["admin", "billing"]])
        #expect(set.status == 200, "\(set)")
        expectAdminError(try await fixture.call("PATCH", "\(base)/members/\(ada.id)", token: token, json: ["roles": []]), 400, "invalid_request", field: "roles")
        // Removing the custom role takes it from the member.
        #expect(try await fixture.call("DELETE", "\(base)/roles/billing", token: token).status == 204)
        #expect(try store.membership(organizationID: org.id, userID: ada.id)?.roles == ["admin"])
        #expect(try await fixture.call("DELETE", "\(base)/members/\(ada.id)", token: token).status == 204)
        expectAdminError(try await fixture.call("DELETE", "\(base)/members/\(ada.id)", token: token), 404, "not_found", field: "user")

        // Invitations: a bad email or role creates nothing; one is listed, resent, revoked.
        expectAdminError(try await fixture.call("POST", "\(base)/invitations", token: token, json: ["email": "not an email"]),
                         400, "invalid_request", field: "email")
        expectAdminError(try await fixture.call("POST", "\(base)/invitations", token: token, json: ["email": "bob@example.com", "role": "wizard"]),
                         400, "invalid_request", field: "role")
        #expect(try store.invitations(organizationID: org.id).isEmpty)
        let outboxBefore = try environment.storage.mailOutbox.claimDue(now: environment.clock.now.addingTimeInterval(1),
                                                                       leaseUntil: environment.clock.now.addingTimeInterval(2), limit: 100).count
        #expect(outboxBefore == 0)
        let invited = try await fixture.call("POST", "\(base)/invitations", token: token, json: ["email": "Bob@Example.com", "role": "admin"])
        #expect(invited.status == 201, "\(invited)")
        let invitation = try invited.json()
        let invitationID = try #require(invitation["id"]?.stringValue)
        #expect(invitation["email"]?.stringValue == "bob@example.com")
        #expect(invitation["status"]?.stringValue == "pending")
        #expect(!invited.text.contains("sgi_"))
        let stored = try #require(try store.invitation(id: invitationID))
        let resent = try await fixture.call("POST", "\(base)/invitations/\(invitationID)/resend", token: token)
        #expect(resent.status == 200, "\(resent)")
        #expect(try store.invitation(id: invitationID)?.tokenHash != stored.tokenHash)
        // Two mails in the outbox: the invitation and the resend.
        let mails = try environment.storage.mailOutbox.claimDue(now: environment.clock.now.addingTimeInterval(1),
                                                                leaseUntil: environment.clock.now.addingTimeInterval(2), limit: 100)
        #expect(mails.count == 2)
        expectAdminError(try await fixture.call("DELETE", "\(base)/invitations/inv_nope", token: token), 404, "not_found", field: "invitation")
        #expect(try await fixture.call("DELETE", "\(base)/invitations/\(invitationID)", token: token).status == 204)
        expectAdminError(try await fixture.call("DELETE", "\(base)/invitations/\(invitationID)", token: token), 409, "conflict", field: "invitation")
        expectAdminError(try await fixture.call("POST", "\(base)/invitations/\(invitationID)/resend", token: token), 409, "conflict", field: "invitation")
        let list = try await fixture.call("GET", "\(base)/invitations", token: token)
        #expect(try list.json()["items"]?.arrayValue?.first?["status"]?.stringValue == "revoked")
        // Another organization's invitation is not reachable through this one.
        _ = try orgs.create(slug: "beta", name: "Beta")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/organizations/beta/invitations/\(invitationID)", token: token),
                         404, "not_found", field: "invitation")
    }
}
