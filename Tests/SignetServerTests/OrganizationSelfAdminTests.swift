import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore
@testable import SignetTesting
import Testing

/// `/org/v1/{org}/…` over real HTTP: an organization's owner or admin manages it with an access
/// token of their own (scope `organization:admin`); an admin cannot grant `owner`, nor touch an
/// owner, nor act on another organization; a member, a token without the scope and no token are
/// refused; every refusal changes nothing.
@Suite(.endToEndLimit) struct OrganizationSelfAdminTests {
    final class Fixture: Sendable {
        let api: APIFixture
        let acme: OrganizationRecord
        let beta: OrganizationRecord

        init() throws {
            api = try APIFixture()
            let environment = api.server.environment
            let now = api.server.clock.now
            for (id, email) in [("owner-1", "olive@example.com"), ("admin-1", "adam@example.com"), ("member-1", "mia@example.com")] {
                try environment.storage.users.insertUser(UserRecord(id: id, email: email, emailVerified: true, createdAt: now, updatedAt: now))
            }
            let orgs = environment.makeOrganizations()
            acme = try orgs.create(slug: "acme", name: "Acme")
            beta = try orgs.create(slug: "beta", name: "Beta")
            try orgs.addMember(acme, userID: "owner-1", roles: ["owner"])
            try orgs.addMember(acme, userID: "admin-1", roles: ["admin"])
            try orgs.addMember(acme, userID: "member-1", roles: ["member"])
            // Admin of acme, also a plain member of beta.
            try orgs.addMember(beta, userID: "admin-1", roles: ["member"])
        }

        var store: any OrganizationStore { api.server.environment.storage.organizations }

        /// An access token of `user` for `app`, as a code redemption issues it.
        func token(_ user: String, scope: String = "openid organization:admin") async throws -> String {
            let core = api.core
            let code = core.tokens.make(.code)
            let now = api.server.clock.now
            try core.storage.codes.insertCode(AuthorizationCodeRecord(
                codeHash: core.tokens.hash(code),
                grantID: core.newIdentifier(),
                terms: GrantTerms(clientID: "app", userID: user, scope: scope, amr: ["pwd"], authTime: now),
                redirectURI: APIFixture.redirect,
                codeChallenge: APIFixture.pkce.challenge,
                nonce: "n-1",
                createdAt: now,
                expiresAt: now.addingTimeInterval(60)))
            let response = try await api.redeem(code)
            guard response.status == 200, let token = try response.json()["access_token"]?.stringValue else {
                throw TestingError("no token: \(response)")
            }
            return token
        }

        func call(_ method: String, _ path: String, token: String?, json: JSONValue? = nil) async throws -> TestResponse {
            var headers: [(String, String)] = []
            if let token { headers.append(("Authorization", "Bearer \(token)")) }
            var body: [UInt8] = []
            if let json {
                body = json.serialized()
                headers.append(("Content-Type", "application/json"))
                // APIFixture.send writes the length of a POST itself.
                if method != "POST" { headers.append(("Content-Length", String(body.count))) }
            }
            return try await api.send(method, path, body: body, headers: headers)
        }
    }

    /// An RFC 6750 refusal: the status, the `error` and the Bearer challenge naming it.
    func expectRefusal(_ response: TestResponse, _ status: Int, _ error: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
        #expect((try? response.json())?["error"]?.stringValue == error, "\(response)", sourceLocation: sourceLocation)
        #expect(response.header("WWW-Authenticate")?.contains("error=\"\(error)\"") == true, "\(response)", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    }

    @Test func whoMayManageTheOrganization() async throws {
        let f = try Fixture()
        defer { f.api.stop() }
        // No token: the bare challenge.
        let none = try await f.call("GET", "/org/v1/acme/members", token: nil)
        #expect(none.status == 401 && none.header("WWW-Authenticate") == #"Bearer realm="signet""#, "\(none)")
        expectRefusal(try await f.call("GET", "/org/v1/acme/members", token: "not-a-token"), 401, "invalid_token")
        // A token without organization:admin.
        expectRefusal(try await f.call("GET", "/org/v1/acme/members", token: try await f.token("owner-1", scope: "openid")), 403, "insufficient_scope")
        // A plain member, and an admin of acme acting on beta (where it is only a member).
        expectRefusal(try await f.call("GET", "/org/v1/acme/members", token: try await f.token("member-1")), 403, "access_denied")
        let admin = try await f.token("admin-1")
        expectRefusal(try await f.call("GET", "/org/v1/beta/members", token: admin), 403, "access_denied")
        expectRefusal(try await f.call("POST", "/org/v1/beta/invitations", token: admin, json: ["email": "x@example.com"]), 403, "access_denied")
        #expect(try f.store.invitations(organizationID: f.beta.id).isEmpty)
        expectRefusal(try await f.call("GET", "/org/v1/nope/members", token: admin), 404, "invalid_request")

        // The admin lists its own organization's members, by slug or id.
        let listed = try await f.call("GET", "/org/v1/acme/members", token: admin)
        #expect(listed.status == 200, "\(listed)")
        #expect(try listed.json()["items"]?.arrayValue?.compactMap { $0["user_id"]?.stringValue } == ["admin-1", "member-1", "owner-1"])
        #expect(try await f.call("GET", "/org/v1/\(f.acme.id)/members?limit=1", token: admin).status == 200)
        expectRefusal(try await f.call("GET", "/org/v1/acme/members?limit=0", token: admin), 400, "invalid_request")
    }

    @Test func anAdminCannotGrantOwnerNorTouchAnOwner() async throws {
        let f = try Fixture()
        defer { f.api.stop() }
        let admin = try await f.token("admin-1")
        // Escalation: granting owner to a member or to itself, inviting an owner.
        expectRefusal(try await f.call("PATCH", "/org/v1/acme/members/member-1", token: admin, json: ["roles": ["owner"]]), 403, "access_denied")
        expectRefusal(try await f.call("PATCH", "/org/v1/acme/members/admin-1", token: admin, json: ["roles": ["admin", "owner"]]), 403, "access_denied")
        expectRefusal(try await f.call("POST", "/org/v1/acme/invitations", token: admin, json: ["email": "eve@example.com", "role": "owner"]),
                      403, "access_denied")
        // Changing or removing the owner.
        expectRefusal(try await f.call("PATCH", "/org/v1/acme/members/owner-1", token: admin, json: ["roles": ["member"]]), 403, "access_denied")
        expectRefusal(try await f.call("DELETE", "/org/v1/acme/members/owner-1", token: admin), 403, "access_denied")
        #expect(try f.store.membership(organizationID: f.acme.id, userID: "member-1")?.roles == ["member"])
        #expect(try f.store.membership(organizationID: f.acme.id, userID: "admin-1")?.roles == ["admin"])
        #expect(try f.store.membership(organizationID: f.acme.id, userID: "owner-1")?.roles == ["owner"])
        #expect(try f.store.invitations(organizationID: f.acme.id).isEmpty)
        // Bad input.
        expectRefusal(try await f.call("PATCH", "/org/v1/acme/members/member-1", token: admin, json: ["roles": ["wizard"]]), 400, "invalid_request")
        expectRefusal(try await f.call("PATCH", "/org/v1/acme/members/member-1", token: admin, json: ["roles": "admin"]), 400, "invalid_request")
        expectRefusal(try await f.call("PATCH", "/org/v1/acme/members/nobody", token: admin, json: ["roles": ["admin"]]), 404, "invalid_request")

        // What an admin may do: change a member's roles, invite as admin, resend, revoke, remove a member.
        let promoted = try await f.call("PATCH", "/org/v1/acme/members/member-1", token: admin, json: ["roles": ["admin"]])
        #expect(promoted.status == 200, "\(promoted)")
        #expect(try f.store.membership(organizationID: f.acme.id, userID: "member-1")?.roles == ["admin"])
        expectRefusal(try await f.call("POST", "/org/v1/acme/invitations", token: admin, json: ["email": "not an email"]), 400, "invalid_request")
        let invited = try await f.call("POST", "/org/v1/acme/invitations", token: admin, json: ["email": "eve@example.com", "role": "admin"])
        #expect(invited.status == 201, "\(invited)")
        let id = try #require(try invited.json()["id"]?.stringValue)
        #expect(try f.store.invitation(id: id)?.invitedBy == "admin-1")
        #expect(try await f.call("POST", "/org/v1/acme/invitations/\(id)/resend", token: admin).status == 200)
        let list = try await f.call("GET", "/org/v1/acme/invitations", token: admin)
        #expect(try list.json()["items"]?.arrayValue?.count == 1)
        // Another organization's invitation is not reachable from this one.
        let betaInvitation = try f.api.server.environment.makeOrganizations().invite(f.beta, email: "zed@example.com", role: nil, actor: "cli") { _, _ in nil }
        expectRefusal(try await f.call("DELETE", "/org/v1/acme/invitations/\(betaInvitation.id)", token: admin), 404, "invalid_request")
        #expect(try f.store.invitation(id: betaInvitation.id)?.revokedAt == nil)
        #expect(try await f.call("DELETE", "/org/v1/acme/invitations/\(id)", token: admin).status == 204)
        expectRefusal(try await f.call("DELETE", "/org/v1/acme/invitations/\(id)", token: admin), 409, "invalid_request")
        #expect(try await f.call("DELETE", "/org/v1/acme/members/member-1", token: admin).status == 204)
        #expect(try f.store.membership(organizationID: f.acme.id, userID: "member-1") == nil)

        // The owner may grant owner.
        let owner = try await f.token("owner-1")
        let made = try await f.call("PATCH", "/org/v1/acme/members/admin-1", token: owner, json: ["roles": ["owner"]])
        #expect(made.status == 200, "\(made)")
        #expect(try f.store.membership(organizationID: f.acme.id, userID: "admin-1")?.roles == ["owner"])
        let events = try f.api.server.environment.storage.audit.recentAudit(limit: 50)
        #expect(events.contains { $0.event == "organization_roles_set" && $0.actor == "owner-1" && $0.subjectID == "admin-1" })
        #expect(events.contains { $0.event == "organization_member_removed" && $0.actor == "admin-1" })
    }
}
