import Foundation
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// `signet orgs …` on a data folder, run as the real binary: the life cycle of an organization,
/// its members, roles and invitations, and the refusals that change nothing.
@Suite(.endToEndLimit) struct OrgsCLITests {
    @Test func organizationsMembersRolesAndInvitations() async throws {
        let folder = try TemporaryDirectory(prefix: "orgs-cli")
        defer { folder.remove() }
        let data = ["--data", folder.appending("data")]
        func signet(_ arguments: [String]) async throws -> SubprocessResult { try await SignetBinary.run(arguments + data) }

        let help = try await SignetBinary.run(["orgs", "--help"])
        #expect(help.status == 0 && help.stdout.contains("signet orgs create SLUG --name NAME"), "\(help)")

        #expect(try await signet(["users", "add", "ada@example.com", "--no-password"]).status == 0)
        #expect(try await signet(["users", "add", "bob@example.com", "--no-password"]).status == 0)
        // Refusals first: a bad slug, no name, an unknown owner; nothing is created.
        let badSlug = try await signet(["orgs", "create", "Acme Corp", "--name", "Acme"])
        #expect(badSlug.status == 64 && badSlug.stderr.contains("slug: must be 2 to 63"), "\(badSlug)")
        let noName = try await signet(["orgs", "create", "acme"])
        #expect(noName.status == 64 && noName.stderr.contains("--name"), "\(noName)")
        let noOwner = try await signet(["orgs", "create", "acme", "--name", "Acme", "--owner", "nobody@example.com"])
        #expect(noOwner.status == 64, "\(noOwner)")
        #expect(try await signet(["orgs", "list"]).stdout.split(separator: "\n").count == 1)

        let created = try await signet(["orgs", "create", "acme", "--name", "Acme Corp", "--owner", "ada@example.com"])
        #expect(created.status == 0 && created.stdout.hasPrefix("org_"), "\(created)")
        let taken = try await signet(["orgs", "create", "acme", "--name", "Other"])
        #expect(taken.status == 64 && taken.stderr.contains("Another organization has this slug"), "\(taken)")
        let list = try await signet(["orgs", "list"])
        #expect(list.stdout.contains("acme") && list.stdout.contains("Acme Corp"), "\(list)")

        #expect(try await signet(["orgs", "roles", "add", "acme", "billing"]).status == 0)
        let roles = try await signet(["orgs", "roles", "acme"])
        #expect(roles.stdout == "owner\nadmin\nmember\nbilling\n", "\(roles)")
        let badRole = try await signet(["orgs", "members", "add", "acme", "bob@example.com", "--role", "wizard"])
        #expect(badRole.status == 64 && badRole.stderr.contains("no role \"wizard\""), "\(badRole)")
        let added = try await signet(["orgs", "members", "add", "acme", "bob@example.com", "--role", "billing"])
        #expect(added.status == 0 && added.stdout.contains("added"), "\(added)")
        let again = try await signet(["orgs", "members", "add", "acme", "bob@example.com"])
        #expect(again.status == 0 && again.stdout.contains("already a member"), "\(again)")
        let set = try await signet(["orgs", "members", "roles", "acme", "bob@example.com", "--role", "admin", "--role", "billing"])
        #expect(set.status == 0 && set.stdout.contains("admin,billing"), "\(set)")
        let members = try await signet(["orgs", "members", "acme"])
        #expect(members.stdout.contains("owner") && members.stdout.contains("admin,billing"), "\(members)")

        let badEmail = try await signet(["orgs", "invite", "acme", "not-an-email"])
        #expect(badEmail.status == 64 && badEmail.stderr.contains("email"), "\(badEmail)")
        let invited = try await signet(["orgs", "invite", "acme", "Carol@Example.com", "--role", "admin"])
        #expect(invited.status == 0 && invited.stdout.hasPrefix("inv_"), "\(invited)")
        let invitationID = invited.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let pending = try await signet(["orgs", "invitations", "acme"])
        #expect(pending.stdout.contains("pending") && pending.stdout.contains("carol@example.com"), "\(pending)")
        #expect(try await signet(["orgs", "invitations", "resend", "acme", invitationID]).status == 0)
        #expect(try await signet(["orgs", "invitations", "revoke", "acme", invitationID]).status == 0)
        let twice = try await signet(["orgs", "invitations", "revoke", "acme", invitationID])
        #expect(twice.status == 64 && twice.stderr.contains("already accepted, revoked or has expired"), "\(twice)")
        #expect(try await signet(["orgs", "invitations", "acme"]).stdout.contains("revoked"))

        let renamed = try await signet(["orgs", "rename", "acme", "--name", "Acme Inc", "--slug", "acme-inc"])
        #expect(renamed.status == 0, "\(renamed)")
        let shown = try await signet(["orgs", "show", "acme-inc"])
        #expect(shown.stdout.contains("name:     Acme Inc") && shown.stdout.contains("members:  2"), "\(shown)")
        let unconfirmed = try await signet(["orgs", "delete", "acme-inc"])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed)")
        #expect(try await signet(["orgs", "delete", "acme-inc", "--yes"]).status == 0)
        let gone = try await signet(["orgs", "show", "acme-inc"])
        #expect(gone.status == 64, "\(gone)")
        // Every change is in the audit trail, which still verifies.
        let audit = try await signet(["audit", "list", "--limit", "100"])
        for event in ["organization_created", "organization_role_added", "organization_member_added", "organization_roles_set",
                      "organization_invitation_sent", "organization_invitation_resent", "organization_invitation_revoked",
                      "organization_updated", "organization_deleted"] {
            #expect(audit.stdout.contains(event), "\(event)")
        }
        #expect(!audit.stdout.contains("carol@example.com"))
        #expect(try await signet(["audit", "verify"]).status == 0)
    }

    /// `signet orgs domains …` on a data folder: a claim prints its TXT record, is proved by DNS
    /// (dnsmasq on loopback, `domains.resolver`) or by the operator's override (`verify
    /// --operator`), bound to a configured connection, listed and removed; each refusal exits
    /// with a reason and changes nothing.
    @Test func domainsAreClaimedProvedByDNSOrTheOperatorBoundListedAndRemoved() async throws {
        let folder = try TemporaryDirectory(prefix: "orgs-domains-cli")
        defer { folder.remove() }
        let dnsPort = try FreePort.pick()
        let config = try folder.write("""
            {"domains": {"resolver": "127.0.0.1:\(dnsPort)", "resolver_timeout": 1},
             "connections": [{"id": "corp", "type": "google", "client_id": "corp.apps", "client_secret": "env:CORP_SECRET"}]}
            """, to: "signet.json")
        let options = ["--config", config, "--data", folder.appending("data")]
        func signet(_ arguments: [String]) async throws -> SubprocessResult {
            try await SignetBinary.run(arguments + options, environment: ["CORP_SECRET": "not used here"])
        }
        #expect(try await signet(["users", "add", "ada@example.com", "--no-password"]).status == 0)
        #expect(try await signet(["orgs", "create", "acme", "--name", "Acme", "--owner", "ada@example.com"]).status == 0)
        #expect(try await signet(["orgs", "create", "beta", "--name", "Beta"]).status == 0)

        let added = try await signet(["orgs", "domains", "add", "acme", "acme.example.test"])
        #expect(added.status == 0 && added.stdout.hasPrefix("claimed acme.example.test for org_"), "\(added)")
        let record = try #require(added.stdout.split(separator: "\n").last { $0.contains("_signet-challenge.acme.example.test") })
        let value = try #require(record.split(separator: "\"").dropFirst().first.map(String.init), "\(record)")
        #expect(record.hasPrefix("  _signet-challenge.acme.example.test  TXT  \""), "\(record)")
        let twice = try await signet(["orgs", "domains", "add", "beta", "acme.example.test"])
        #expect(twice.status != 0 && !twice.stderr.isEmpty, "\(twice)")
        let notADomain = try await signet(["orgs", "domains", "add", "acme", "not a domain"])
        #expect(notADomain.status != 0 && !notADomain.stderr.isEmpty, "\(notADomain)")
        let unknown = try await signet(["orgs", "domains", "list", "nope"])
        #expect(unknown.status == 64 && unknown.stderr.contains("no organization \"nope\""), "\(unknown)")

        // Not proved yet: binding is refused; a DNS check with no record fails; nothing changes.
        let early = try await signet(["orgs", "domains", "bind", "acme", "acme.example.test", "--connection", "corp"])
        #expect(early.status != 0 && !early.stderr.isEmpty, "\(early)")
        let empty = try await LocalDNSServer.start(zones: ["example.test"], records: [], port: dnsPort)
        let missing = try await signet(["orgs", "domains", "verify", "acme", "acme.example.test"])
        await empty.stop()
        #expect(missing.status != 0 && !missing.stderr.isEmpty, "\(missing)")
        let unproved = try await signet(["orgs", "domains", "list", "acme"])
        #expect(unproved.stdout == """
            DOMAIN                         VERIFIED   CONNECTION           POLICY
            acme.example.test              no         -                    optional
                publish _signet-challenge.acme.example.test TXT "\(value)"

            """, "\(unproved)")

        let dns = try await LocalDNSServer.start(zones: ["example.test"], records: [("_signet-challenge.acme.example.test", value)], port: dnsPort)
        let proved = try await signet(["orgs", "domains", "verify", "acme", "acme.example.test"])
        await dns.stop()
        #expect(proved.status == 0 && proved.stdout == "acme.example.test verified (dns)\n", "\(proved)")
        // The operator's override: no DNS record at all.
        #expect(try await signet(["orgs", "domains", "add", "acme", "acme-mail.example.test"]).status == 0)
        let vouched = try await signet(["orgs", "domains", "verify", "acme", "acme-mail.example.test", "--operator"])
        #expect(vouched.status == 0 && vouched.stdout == "acme-mail.example.test verified (operator)\n", "\(vouched)")

        let noConnection = try await signet(["orgs", "domains", "bind", "acme", "acme.example.test", "--connection", "nope"])
        #expect(noConnection.status == 64 && noConnection.stderr.contains("no connection \"nope\""), "\(noConnection)")
        let badPolicy = try await signet(["orgs", "domains", "bind", "acme", "acme.example.test", "--connection", "corp", "--policy", "always"])
        #expect(badPolicy.status == 64 && badPolicy.stderr.contains("--policy must be sso_required or optional"), "\(badPolicy)")
        let bound = try await signet(["orgs", "domains", "bind", "acme", "acme.example.test", "--connection", "corp", "--policy", "sso_required"])
        #expect(bound.status == 0 && bound.stdout == "acme.example.test → corp (sso_required)\n", "\(bound)")
        let listed = try await signet(["orgs", "domains", "list", "acme"])
        #expect(listed.stdout == """
            DOMAIN                         VERIFIED   CONNECTION           POLICY
            acme-mail.example.test         operator   -                    optional
            acme.example.test              dns        corp                 sso_required

            """, "\(listed)")

        let removed = try await signet(["orgs", "domains", "remove", "acme", "acme-mail.example.test"])
        #expect(removed.status == 0 && removed.stdout == "removed\n", "\(removed)")
        #expect(try await signet(["orgs", "domains", "list", "acme"]).stdout.contains("acme-mail") == false)
        let events = try await signet(["audit", "list", "--actor", "cli"])
        let names = events.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)).objectValue?["event"]?.stringValue }
            .filter { $0.hasPrefix("organization_domain_") }
        #expect(names == ["organization_domain_claimed", "organization_domain_verification_failed", "organization_domain_verified",
                          "organization_domain_claimed", "organization_domain_verified", "organization_domain_bound",
                          "organization_domain_removed"], "\(events.stdout)")
        #expect(try await signet(["audit", "verify"]).status == 0)
    }
}
