import Foundation
import SignetJOSE

/// `signet orgs …`, `signet connections list` and `signet users role` with `--admin-url`: the
/// same actions through the admin API (`call`, `all`), printed as the data folder's commands print.
extension RemoteAdmin {
    // MARK: organizations

    func orgs(_ action: String, _ arguments: ParsedArguments) async throws {
        let words = arguments.positionals
        func org(_ index: Int) throws -> String {
            guard words.count > index else { throw UsageError("orgs \(action) needs an organization id or slug") }
            return "/admin/v1/organizations/\(Self.segment(words[index]))"
        }
        func expect(_ count: Int, _ what: String) throws {
            guard words.count == count else { throw UsageError("orgs \(what)") }
        }
        switch action {
        case "create":
            try expect(2, "create needs exactly one SLUG")
            guard let name = arguments.value("name") else { throw UsageError("orgs create needs --name NAME") }
            var body: [String: JSONValue] = ["slug": .string(words[1]), "name": .string(name)]
            if let logo = arguments.value("logo") { body["logo_url"] = .string(logo) }
            if let owner = arguments.value("owner") { body["owner"] = .string(owner) }
            Output.print(try await call("POST", "/admin/v1/organizations", json: .object(body)).body?["id"]?.stringValue ?? "")
        case "list":
            try expect(1, "list takes no arguments")
            Output.print(OrgsCommand.Listing.organizationsHeader)
            for o in try await all("/admin/v1/organizations") {
                Output.print(OrgsCommand.Listing.organization(id: o["id"]?.stringValue ?? "", slug: o["slug"]?.stringValue ?? "",
                                                              name: o["name"]?.stringValue ?? ""))
            }
        case "show":
            try expect(2, "show needs one ORG")
            let path = try org(1)
            let o = try await call("GET", path).body ?? .null
            let roles = try await call("GET", path + "/roles").body?["items"]?.arrayValue ?? []
            let members = try await all(path + "/members").count
            Output.print(OrgsCommand.Listing.organizationDetails(
                id: o["id"]?.stringValue ?? "", slug: o["slug"]?.stringValue ?? "", name: o["name"]?.stringValue ?? "",
                logo: o["logo_url"]?.stringValue, roles: roles.compactMap(\.stringValue), members: members,
                created: o["created_at"]?.stringValue ?? ""))
        case "rename":
            try expect(2, "rename needs one ORG and --name, --slug or --logo")
            var body: [String: JSONValue] = [:]
            if let name = arguments.value("name") { body["name"] = .string(name) }
            if let slug = arguments.value("slug") { body["slug"] = .string(slug) }
            if let logo = arguments.value("logo") { body["logo_url"] = .string(logo) }
            guard !body.isEmpty else { throw UsageError("orgs rename needs --name, --slug or --logo") }
            let path = try org(1)
            let current = try await call("GET", path)
            let updated = try await call("PATCH", path, json: .object(body), ifMatch: current.etag).body ?? .null
            Output.print(OrgsCommand.Listing.updated(id: updated["id"]?.stringValue ?? "", slug: updated["slug"]?.stringValue ?? "",
                                                     name: updated["name"]?.stringValue ?? ""))
        case "delete":
            try expect(2, "delete needs one ORG")
            guard arguments.flag("yes") else {
                throw UsageError("orgs delete removes the organization, its roles, members and invitations for good; add --yes to confirm")
            }
            let path = try org(1)
            let current = try await call("GET", path)
            _ = try await call("DELETE", path, ifMatch: current.etag)
            Output.print("deleted \(current.body?["id"]?.stringValue ?? words[1])")
        case "members":
            try await members(words, arguments, org: org)
        case "roles":
            if words.count == 2 {
                for role in try await call("GET", try org(1) + "/roles").body?["items"]?.arrayValue ?? [] { Output.print(role.stringValue ?? "") }
                return
            }
            guard words.count == 4, ["add", "remove"].contains(words[1]) else { throw UsageError("orgs roles needs ORG, or add|remove ORG NAME") }
            let slug = try await self.slug(try org(2))
            if words[1] == "add" {
                _ = try await call("POST", try org(2) + "/roles", json: .object(["name": .string(words[3])]))
                Output.print("added role \(words[3]) to \(slug)")
            } else {
                _ = try await call("DELETE", try org(2) + "/roles/\(Self.segment(words[3]))")
                Output.print("removed role \(words[3]) from \(slug)")
            }
        case "invite":
            try expect(3, "invite needs ORG and one EMAIL")
            var body: [String: JSONValue] = ["email": .string(words[2])]
            if let role = arguments.value("role") { body["role"] = .string(role) }
            Output.print(try await call("POST", try org(1) + "/invitations", json: .object(body)).body?["id"]?.stringValue ?? "")
        case "invitations":
            if words.count == 2 {
                Output.print(OrgsCommand.Listing.invitationsHeader)
                for i in try await call("GET", try org(1) + "/invitations").body?["items"]?.arrayValue ?? [] {
                    Output.print(OrgsCommand.Listing.invitation(id: i["id"]?.stringValue ?? "", status: i["status"]?.stringValue ?? "",
                                                                role: i["role"]?.stringValue ?? "", expires: i["expires_at"]?.stringValue ?? "",
                                                                email: i["email"]?.stringValue ?? ""))
                }
                return
            }
            guard words.count == 4, ["resend", "revoke"].contains(words[1]) else {
                throw UsageError("orgs invitations needs ORG, or resend|revoke ORG ID")
            }
            let path = try org(2) + "/invitations/\(Self.segment(words[3]))"
            if words[1] == "resend" {
                _ = try await call("POST", path + "/resend")
                Output.print("resent \(words[3]): the earlier link no longer works")
            } else {
                _ = try await call("DELETE", path)
                Output.print("revoked \(words[3])")
            }
        default:
            throw UsageError("unknown orgs action \"\(action)\"; use create, list, show, rename, delete, members, roles, invite or invitations")
        }
    }

    private func members(_ words: [String], _ arguments: ParsedArguments, org: (Int) throws -> String) async throws {
        if words.count == 2 {
            Output.print(OrgsCommand.Listing.membersHeader)
            for member in try await all(try org(1) + "/members") {
                Output.print(OrgsCommand.Listing.member(userID: member["user_id"]?.stringValue ?? "",
                                                        roles: (member["roles"]?.arrayValue ?? []).compactMap(\.stringValue)))
            }
            return
        }
        guard words.count == 4, ["add", "remove", "roles"].contains(words[1]) else {
            throw UsageError("orgs members needs ORG, or add|remove|roles ORG USER")
        }
        let path = try org(2) + "/members", roles = arguments.all("role")
        // The data folder's command names the organization by its slug, whichever way it was given.
        let slug = try await self.slug(try org(2))
        switch words[1] {
        case "add":
            var body: [String: JSONValue] = ["user_id": .string(words[3])]
            if !roles.isEmpty { body["roles"] = .array(roles.map(JSONValue.string)) }
            let added = try await call("POST", path, json: .object(body))
            Output.print(OrgsCommand.Listing.added(userID: added.body?["user_id"]?.stringValue ?? words[3], slug: slug, new: added.status == 201))
        case "remove":
            _ = try await call("DELETE", path + "/\(Self.segment(words[3]))")
            Output.print("removed \(words[3]) from \(slug)")
        default:
            guard !roles.isEmpty else { throw UsageError("orgs members roles needs --role R (repeatable)") }
            let member = try await call("PATCH", path + "/\(Self.segment(words[3]))", json: .object(["roles": .array(roles.map(JSONValue.string))]))
            Output.print(OrgsCommand.Listing.roles(userID: member.body?["user_id"]?.stringValue ?? words[3], slug: slug,
                                                   roles: (member.body?["roles"]?.arrayValue ?? []).compactMap(\.stringValue)))
        }
    }

    /// The slug of the organization at `path`.
    private func slug(_ path: String) async throws -> String {
        try await call("GET", path).body?["slug"]?.stringValue ?? ""
    }

    // MARK: connections

    /// `connections list`: the node's connections with the status and last error it saw.
    func connections(_ arguments: ParsedArguments) async throws {
        let items = try await all("/admin/v1/connections")
        if items.isEmpty {
            Output.print("no connections configured on that node")
            return
        }
        var lines = [ConnectionsCommand.header]
        for c in items {
            lines.append(ConnectionsCommand.line(id: c["id"]?.stringValue ?? "", type: c["type"]?.stringValue ?? "",
                                                 enabled: c["enabled"]?.boolValue == true, name: c["display_name"]?.stringValue ?? "",
                                                 issuer: c["issuer"]?.stringValue ?? ""))
            var details = "    callback \(c["callback_url"]?.stringValue ?? "")  client_id \(c["client_id"]?.stringValue ?? "")"
            details += "  status \(c["status"]?.stringValue ?? "")"
            if let error = c["last_error"], !error.isNull {
                details += "  last error \(error["at"]?.stringValue ?? "") \(error["reason"]?.stringValue ?? ""): \(error["message"]?.stringValue ?? "")"
            }
            lines.append(details)
        }
        Output.print(lines.joined(separator: "\n"))
    }

    // MARK: console roles

    /// `users role USER admin|viewer|none`: reads the role's ETag, then sets it.
    func operatorRole(_ arguments: ParsedArguments) async throws {
        guard arguments.positionals.count == 3 else { throw UsageError("users role needs USER and admin, viewer or none") }
        let role = arguments.positionals[2]
        guard ["admin", "viewer", "none"].contains(role) else { throw UsageError("the role must be admin, viewer or none") }
        let user = try await user(arguments.positionals[1])
        let path = "/admin/v1/users/\(Self.segment(user.id))/operator-role"
        let current = try await call("GET", path)
        _ = try await call("PUT", path, json: .object(["role": role == "none" ? .null : .string(role)]), ifMatch: current.etag)
        Output.print(role == "none" ? "\(user.id) has no console role" : "\(user.id) has the console role \(role)")
    }
}
