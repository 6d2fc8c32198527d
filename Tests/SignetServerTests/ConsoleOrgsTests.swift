import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The console's organizations section end to end: list, create (a bad slug names its field),
/// members (add, change role, remove), invitations (invite through the outbox, revoke), a domain
/// claim, and the refusals (a viewer, a bad CSRF field) with nothing changed.
extension ConsoleTests {
    func organizationCount(_ env: Interactive) throws -> Int {
        try env.server.environment.storage.organizations.organizations(limit: 1000, after: nil).count
    }

    func pendingMail(_ env: Interactive) throws -> Int {
        let now = env.server.environment.clock.now
        return try env.server.environment.storage.mailOutbox.claimDue(now: now.addingTimeInterval(1), leaseUntil: now.addingTimeInterval(2), limit: 100).count
    }

    @Test func organizationsAreCreatedAndTheirMembersInvitationsAndDomainsManaged() async throws {
        let env = try environment()
        defer { env.stop() }
        let bob = try env.server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: Interactive.password)
        let (browser, _) = try await signedIn(env)
        let list = try await browser.open(env.server.adminURL("/console/orgs"))
        #expect(list.status == 200)
        expectHardened(list.response)
        #expect(list.response.text.contains("href=\"/console/orgs\" aria-current=\"page\">Organizations<"))
        #expect(list.response.text.contains("No organizations yet."))

        // A bad slug: 400, the field named and marked, nothing created.
        let bad = try await browser.submit(formWithAction: "/console/orgs", fields: ["name": "Acme", "slug": "Not A Slug!"])
        #expect(bad.status == 400)
        #expect(bad.response.text.contains("<code>slug</code>"))
        #expect(bad.response.text.contains("name=\"slug\" type=\"text\" value=\"Not A Slug!\" aria-invalid=\"true\""))
        #expect(try organizationCount(env) == 0)

        let created = try await browser.submit(formWithAction: "/console/orgs", fields: ["name": "Acme <Corp>", "slug": "acme"])
        #expect(created.status == 200)
        #expect(created.url.query == "notice=org-created")
        let org = try #require(try env.server.environment.makeOrganizations().find("acme"))
        #expect(created.url.path == "/console/orgs/\(org.id)")
        #expect(created.response.text.contains("Acme &lt;Corp&gt;"))
        let audit = try env.server.environment.storage.audit.listAudit(AuditQuery(event: "organization_created", limit: 5))
        #expect(audit.first?.actor == "console:\(env.user.id)")
        _ = try await browser.open(env.server.adminURL("/console/orgs"))
        #expect(browser.page?.text.contains("<code>acme</code>") == true)

        // Members: an unknown user names the field; bob is added, made admin, removed.
        let base = "/console/orgs/\(org.id)"
        _ = try await browser.open(env.server.adminURL(base))
        let unknown = try await browser.submit(formWithAction: "\(base)/members", fields: ["user_id": "nobody@example.com", "role": "member"])
        #expect(unknown.status == 404)
        #expect(unknown.response.text.contains("<code>user_id</code>"))
        let store = env.server.environment.storage.organizations
        #expect(try store.membership(organizationID: org.id, userID: bob.id) == nil)
        let added = try await browser.submit(formWithAction: "\(base)/members", fields: ["user_id": "bob@example.com", "role": "member"])
        #expect(added.status == 200)
        #expect(added.url.query == "notice=member-added")
        #expect(try store.membership(organizationID: org.id, userID: bob.id)?.roles == ["member"])
        #expect(added.response.text.contains("<strong>bob@example.com</strong> · member"))
        let changed = try await browser.submit(formWithAction: "\(base)/member-role/\(bob.id)", fields: ["role": "admin"])
        #expect(changed.status == 200)
        #expect(changed.url.query == "notice=org-saved")
        #expect(try store.membership(organizationID: org.id, userID: bob.id)?.roles == ["admin"])
        let removed = try await browser.submit(formWithAction: "\(base)/member-remove/\(bob.id)")
        #expect(removed.status == 200)
        #expect(try store.membership(organizationID: org.id, userID: bob.id) == nil)

        // Invitations: a bad email names the field and sends nothing; one goes through the outbox, then is revoked.
        let badMail = try await browser.submit(formWithAction: "\(base)/invite", fields: ["email": "not an email", "role": "member"])
        #expect(badMail.status == 400)
        #expect(badMail.response.text.contains("<code>email</code>"))
        #expect(try store.invitations(organizationID: org.id).isEmpty)
        let invited = try await browser.submit(formWithAction: "\(base)/invite", fields: ["email": "Carol@Example.com", "role": "admin"])
        #expect(invited.status == 200)
        #expect(invited.url.query == "notice=invitation-sent")
        let invitation = try #require(try store.invitations(organizationID: org.id).first)
        #expect(invitation.email == "carol@example.com")
        #expect(invitation.role == "admin")
        #expect(try pendingMail(env) == 1)
        #expect(invited.response.text.contains("data-invitation=\"\(invitation.id)\" data-state=\"pending\""))
        // Resend: a new link (the old one stops working) and one more mail in the outbox.
        let resent = try await browser.submit(formWithAction: "\(base)/invitation-resend/\(invitation.id)")
        #expect(resent.status == 200)
        #expect(resent.url.query == "notice=org-saved")
        #expect(try store.invitation(id: invitation.id)?.tokenHash != invitation.tokenHash)
        #expect(try pendingMail(env) == 1)
        let revoked = try await browser.submit(formWithAction: "\(base)/invitation-revoke/\(invitation.id)")
        #expect(revoked.status == 200)
        #expect(try store.invitation(id: invitation.id)?.revokedAt != nil)
        #expect(revoked.response.text.contains("data-invitation=\"\(invitation.id)\" data-state=\"revoked\""))
        #expect(!revoked.response.text.contains("action=\"\(base)/invitation-revoke/\(invitation.id)\""))

        // Domains: a claim shows its TXT record; the operator marks it verified.
        let claimed = try await browser.submit(formWithAction: "\(base)/domains", fields: ["domain": "acme.example"])
        #expect(claimed.status == 200)
        #expect(claimed.response.text.contains("_signet-challenge.acme.example TXT"))
        #expect(claimed.response.text.contains("not verified"))
        let verified = try await browser.submit(formWithAction: "\(base)/domain-operator/acme.example")
        #expect(verified.status == 200)
        #expect(try env.server.environment.storage.organizationDomains.domain("acme.example")?.verifiedAt != nil)
        let again = try await browser.submit(formWithAction: "\(base)/domains", fields: ["domain": "acme.example"])
        #expect(again.status == 409)
        #expect(again.response.text.contains("<code>domain</code>"))
    }

    @Test func aViewerSeesOrganizationsButChangesNothingAndABadCSRFFieldIsRefused() async throws {
        let env = try environment()
        defer { env.stop() }
        let bob = try env.server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: Interactive.password)
        let orgs = env.server.environment.makeOrganizations()
        let org = try orgs.create(slug: "acme", name: "Acme")
        _ = try orgs.addMember(org, userID: bob.id, roles: ["member"])
        let base = "/console/orgs/\(org.id)"

        // An admin with a wrong CSRF field: 403, nothing changed.
        let (admin, _) = try await signedIn(env)
        _ = try await admin.open(env.server.adminURL(base))
        let forged = try await HTTPTestClient(cookies: admin.cookies).post(env.server.adminURL("\(base)/member-role/\(bob.id)"),
                                                                           form: [("csrf", "AAAA"), ("role", "owner")])
        #expect(forged.status == 403)
        expectHardened(forged)
        let forgedCreate = try await HTTPTestClient(cookies: admin.cookies).post(env.server.adminURL("/console/orgs"),
                                                                                 form: [("csrf", "AAAA"), ("name", "Beta"), ("slug", "beta")])
        #expect(forgedCreate.status == 403)
        #expect(try env.server.environment.storage.organizations.membership(organizationID: org.id, userID: bob.id)?.roles == ["member"])
        #expect(try organizationCount(env) == 1)

        // A viewer: both pages, no forms; a post with a good CSRF field is 403 naming the scope.
        let (viewer, _) = try await signedIn(env, role: "viewer")
        let list = try await viewer.open(env.server.adminURL("/console/orgs"))
        #expect(list.status == 200)
        #expect(list.response.text.contains("<code>acme</code>"))
        #expect(!list.response.text.contains("action=\"/console/orgs\""))
        let detail = try await viewer.open(env.server.adminURL(base))
        #expect(detail.status == 200)
        #expect(detail.response.text.contains("<strong>bob@example.com</strong> · member"))
        #expect(!detail.response.text.contains("action=\"\(base)/"))
        let field = try #require(viewer.forms.first { $0.action.path == "/console/signout" }?.value("csrf"))
        let client = HTTPTestClient(cookies: viewer.cookies)
        for (path, form) in [("/console/orgs", [("name", "Beta"), ("slug", "beta")]), ("\(base)/members", [("user_id", env.user.id), ("role", "owner")]),
                             ("\(base)/member-role/\(bob.id)", [("role", "owner")]), ("\(base)/member-remove/\(bob.id)", []),
                             ("\(base)/invite", [("email", "carol@example.com"), ("role", "member")]), ("\(base)/domains", [("domain", "acme.example")])] {
            let refused = try await client.post(env.server.adminURL(path), form: form + [("csrf", field)])
            #expect(refused.status == 403, "\(path)")
            #expect(refused.text.contains("admin:orgs:write"), "\(path)")
        }
        #expect(try organizationCount(env) == 1)
        #expect(try env.server.environment.storage.organizations.membership(organizationID: org.id, userID: bob.id)?.roles == ["member"])
        #expect(try env.server.environment.storage.organizations.membership(organizationID: org.id, userID: env.user.id) == nil)
        #expect(try env.server.environment.storage.organizations.invitations(organizationID: org.id).isEmpty)
        #expect(try pendingMail(env) == 0)
        #expect(try env.server.environment.storage.organizationDomains.domain("acme.example") == nil)
    }
}
