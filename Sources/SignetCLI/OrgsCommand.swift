import Foundation
import SignetCore
import SignetServer
import SignetStore

/// `signet orgs …`: organizations, their members, roles and invitations on the local data folder,
/// through `Organizations` (the rules and audit events the admin API and org admins share).
enum OrgsCommand {
    static let usage = """
    usage: signet orgs create SLUG --name NAME [--logo URL] [--owner USER]
           signet orgs list | show ORG | rename ORG [--name NAME] [--slug SLUG] [--logo URL] | delete ORG --yes
           signet orgs members ORG | members add ORG USER [--role R]... | members remove ORG USER
                     | members roles ORG USER --role R...
           signet orgs roles ORG | roles add ORG NAME | roles remove ORG NAME
           signet orgs invite ORG EMAIL [--role R] | invitations ORG | invitations resend ORG ID
                     | invitations revoke ORG ID

    ORG is an organization's id (org_…) or slug; USER a user's id (sub) or email. Roles: owner,
    admin and member are built in; `roles add` defines more. An invitation is mailed through the
    outbox (sent by signet serve) with a link that works once, for organizations.invitation_lifetime.

    options:
      --config FILE  the configuration file (signet.json)
      --data DIR     the data folder (overrides data_dir)
      --admin-url URL --token TOKEN  every command above (not domains) on a remote node through its
                     admin API, with an admin:orgs:read (list, show, members, roles, invitations) or
                     admin:orgs:write token (or SIGNET_ADMIN_URL and SIGNET_ADMIN_TOKEN)
    """

    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(RemoteAdmin.options).union(["name", "slug", "logo", "owner", "role"]),
                                            flags: ["yes"])
        let words = arguments.positionals
        guard let action = words.first else { throw UsageError("orgs needs create, list, show, rename, delete, members, roles, invite or invitations") }
        if let remote = try RemoteAdmin.from(arguments) {
            try await remote.orgs(action, arguments)
            return 0
        }
        let environment = try ServerEnvironment.open(try CommonOptions.configuration(arguments))
        let orgs = environment.makeOrganizations()
        let users = environment.makeUserService()
        func org(_ index: Int) throws -> OrganizationRecord {
            guard words.count > index else { throw UsageError("orgs \(action) needs an organization id or slug") }
            guard let found = try orgs.find(words[index]) else { throw UsageError("no organization has the id or slug \"\(words[index])\"") }
            return found
        }
        func user(_ index: Int) throws -> UserRecord {
            guard words.count > index else { throw UsageError("orgs \(words.prefix(2).joined(separator: " ")) needs a user id or email") }
            guard let found = try users.find(words[index]) else { throw UsageError("no such user") }
            return found
        }
        func expect(_ count: Int, _ what: String) throws {
            guard words.count == count else { throw UsageError("orgs \(what)") }
        }
        do {
            switch action {
            case "create":
                try expect(2, "create needs exactly one SLUG")
                guard let name = arguments.value("name") else { throw UsageError("orgs create needs --name NAME") }
                let owner = try arguments.value("owner").map { raw -> String in
                    guard let found = try users.find(raw) else { throw UsageError("no such user for --owner") }
                    return found.id
                }
                let created = try orgs.create(slug: words[1], name: name, logoURL: arguments.value("logo"), owner: owner)
                Output.print(created.id)
            case "list":
                try expect(1, "list takes no arguments")
                Output.print(Listing.organizationsHeader)
                var after: String?
                while true {
                    let page = try environment.storage.organizations.organizations(limit: 200, after: after)
                    for o in page { Output.print(Listing.organization(id: o.id, slug: o.slug, name: o.name)) }
                    guard page.count == 200, let last = page.last else { break }
                    after = last.id
                }
            case "show":
                try expect(2, "show needs one ORG")
                let o = try org(1)
                Output.print(Listing.organizationDetails(id: o.id, slug: o.slug, name: o.name, logo: o.logoURL, roles: try orgs.roles(o),
                                                         members: try environment.storage.organizations.members(organizationID: o.id, limit: 10_000, after: nil).count,
                                                         created: KeysCommand.stamp(o.createdAt)))
            case "rename":
                try expect(2, "rename needs one ORG and --name, --slug or --logo")
                guard arguments.value("name") != nil || arguments.value("slug") != nil || arguments.value("logo") != nil else {
                    throw UsageError("orgs rename needs --name, --slug or --logo")
                }
                let updated = try orgs.update(try org(1), slug: arguments.value("slug"), name: arguments.value("name"), logoURL: arguments.value("logo"))
                Output.print(Listing.updated(id: updated.id, slug: updated.slug, name: updated.name))
            case "delete":
                try expect(2, "delete needs one ORG")
                let o = try org(1)
                guard arguments.flag("yes") else {
                    throw UsageError("orgs delete removes the organization, its roles, members and invitations for good; add --yes to confirm")
                }
                try orgs.delete(o)
                Output.print("deleted \(o.id)")
            case "members":
                try members(words, arguments, orgs: orgs, environment: environment, org: org, user: user)
            case "roles":
                if words.count == 2 {
                    for role in try orgs.roles(try org(1)) { Output.print(role) }
                    return 0
                }
                guard words.count == 4, ["add", "remove"].contains(words[1]) else { throw UsageError("orgs roles needs ORG, or add|remove ORG NAME") }
                let o = try org(2)
                if words[1] == "add" { Output.print("added role \(try orgs.addRole(o, words[3])) to \(o.slug)") } else {
                    try orgs.removeRole(o, words[3])
                    Output.print("removed role \(words[3]) from \(o.slug)")
                }
            case "invite":
                try expect(3, "invite needs ORG and one EMAIL")
                let o = try org(1)
                let mailer = InvitationMailer(environment: environment)
                let invitation = try orgs.invite(o, email: words[2], role: arguments.value("role"), actor: "cli", mail: mailer.mail(for: o))
                Output.print(invitation.id)
                if !environment.configuration.isMailConfigured {
                    Output.error("note: mail.smtp_url is not set, so the invitation waits in the outbox until it is")
                }
            case "invitations":
                try invitations(words, orgs: orgs, environment: environment, org: org)
            default:
                throw UsageError("unknown orgs action \"\(action)\"; use create, list, show, rename, delete, members, roles, invite or invitations")
            }
        } catch let error as OrganizationError {
            throw UsageError(error.description)
        }
        return 0
    }

    private static func members(_ words: [String], _ arguments: ParsedArguments, orgs: Organizations, environment: ServerEnvironment,
                                org: (Int) throws -> OrganizationRecord, user: (Int) throws -> UserRecord) throws {
        if words.count == 2 {
            let o = try org(1)
            Output.print(Listing.membersHeader)
            var after: String?
            while true {
                let page = try environment.storage.organizations.members(organizationID: o.id, limit: 200, after: after)
                for member in page { Output.print(Listing.member(userID: member.userID, roles: member.roles)) }
                guard page.count == 200, let last = page.last else { break }
                after = last.userID
            }
            return
        }
        guard words.count == 4, ["add", "remove", "roles"].contains(words[1]) else {
            throw UsageError("orgs members needs ORG, or add|remove|roles ORG USER")
        }
        let o = try org(2), u = try user(3)
        switch words[1] {
        case "add":
            let added = try orgs.addMember(o, userID: u.id, roles: arguments.all("role"), actor: "cli")
            Output.print(Listing.added(userID: u.id, slug: o.slug, new: added))
        case "remove":
            try orgs.removeMember(o, userID: u.id, actor: "cli")
            Output.print("removed \(u.id) from \(o.slug)")
        default:
            guard !arguments.all("role").isEmpty else { throw UsageError("orgs members roles needs --role R (repeatable)") }
            let member = try orgs.setRoles(o, userID: u.id, roles: arguments.all("role"), actor: "cli")
            Output.print(Listing.roles(userID: u.id, slug: o.slug, roles: member.roles))
        }
    }

    private static func invitations(_ words: [String], orgs: Organizations, environment: ServerEnvironment,
                                    org: (Int) throws -> OrganizationRecord) throws {
        if words.count == 2 {
            let o = try org(1)
            let now = environment.clock.now
            Output.print(Listing.invitationsHeader)
            for i in try orgs.invitations(o) {
                let status = i.acceptedAt != nil ? "accepted" : i.revokedAt != nil ? "revoked" : i.expiresAt <= now ? "expired" : "pending"
                Output.print(Listing.invitation(id: i.id, status: status, role: i.role, expires: KeysCommand.stamp(i.expiresAt), email: i.email))
            }
            return
        }
        guard words.count == 4, ["resend", "revoke"].contains(words[1]) else {
            throw UsageError("orgs invitations needs ORG, or resend|revoke ORG ID")
        }
        let o = try org(2)
        let invitation = try orgs.invitation(o, id: words[3])
        if words[1] == "resend" {
            let mailer = InvitationMailer(environment: environment)
            _ = try orgs.resend(invitation, actor: "cli", mail: mailer.mail(for: o))
            Output.print("resent \(invitation.id): the earlier link no longer works")
        } else {
            try orgs.revoke(invitation, actor: "cli")
            Output.print("revoked \(invitation.id)")
        }
    }
}

extension OrgsCommand {
    /// The lines `signet orgs` prints, shared by the data folder and `--admin-url`.
    enum Listing {
        static let organizationsHeader = "ID                          SLUG                 NAME"
        static let membersHeader = "USER                    ROLES"
        static let invitationsHeader = "ID                         STATUS    ROLE       EXPIRES                EMAIL"

        static func organization(id: String, slug: String, name: String) -> String {
            "\(pad(id, 27)) \(pad(slug, 20)) \(name)"
        }

        static func organizationDetails(id: String, slug: String, name: String, logo: String?, roles: [String], members: Int,
                                        created: String) -> String {
            ["id:       \(id)", "slug:     \(slug)", "name:     \(name)", "logo:     \(logo ?? "-")",
             "roles:    \(roles.joined(separator: ", "))", "members:  \(members)", "created:  \(created)"].joined(separator: "\n")
        }

        static func updated(id: String, slug: String, name: String) -> String { "updated \(id): \(slug) \"\(name)\"" }

        static func member(userID: String, roles: [String]) -> String { "\(pad(userID, 23)) \(roles.joined(separator: ","))" }

        static func added(userID: String, slug: String, new: Bool) -> String {
            new ? "added \(userID) to \(slug)" : "\(userID) is already a member of \(slug) (roles unchanged)"
        }

        static func roles(userID: String, slug: String, roles: [String]) -> String { "\(userID) in \(slug): \(roles.joined(separator: ","))" }

        static func invitation(id: String, status: String, role: String, expires: String, email: String) -> String {
            "\(pad(id, 26)) \(pad(status, 9)) \(pad(role, 10)) \(expires) \(email)"
        }

        private static func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
    }
}
