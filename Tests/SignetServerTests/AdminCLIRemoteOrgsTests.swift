import Foundation
import SignetHTTP
import SignetJOSE
import SignetTesting
import Testing

/// `signet orgs …`, `signet connections list` and `signet users role` with `--admin-url` drive a
/// running `signet serve` through its admin API, and are refused with a bad token (401) or a token
/// without the operation's scope (403), changing nothing.
@Suite(.endToEndLimit) struct AdminCLIRemoteOrgsTests {
    /// A running binary with an admin client `ops` made on its data folder.
    struct RemoteNode {
        let folder: TemporaryDirectory
        let data: String
        let server: BinaryServer
        let admin: String
        let secret: String

        static func start(_ prefix: String, scopes: String, arguments: [String] = []) async throws -> RemoteNode {
            let folder = try TemporaryDirectory(prefix: prefix)
            let data = folder.appending("data")
            let server = try await TestServer.launchBinary(arguments: arguments, dataDirectory: data)
            let admin = try #require(server.adminURL).absoluteString
            let added = try await SignetBinary.run(["clients", "add", "ops", "--confidential", "--grant-type", "client_credentials",
                                                    "--scope", scopes, "--resource", server.issuer + "/admin/v1", "--data", data])
            #expect(added.status == 0, "\(added)")
            let secret = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("client_secret: ") }?.dropFirst(15))
            return RemoteNode(folder: folder, data: data, server: server, admin: admin, secret: String(secret))
        }

        func token(_ scope: String) async throws -> String {
            let response = try await HTTPTestClient().post(server.baseURL.appendingPathComponent("token"), form: [
                ("grant_type", "client_credentials"), ("resource", server.issuer + "/admin/v1"), ("scope", scope),
            ], headers: ["Authorization": "Basic " + Data("ops:\(secret)".utf8).base64EncodedString()])
            return try #require(try response.json()["access_token"]?.stringValue, "\(response)")
        }

        func remote(_ scope: String) async throws -> [String] { ["--admin-url", admin, "--token", try await token(scope)] }

        func stop() async {
            _ = await server.stop()
            folder.remove()
        }
    }

    @Test func orgsOnARemoteNode() async throws {
        let node = try await RemoteNode.start("remote-orgs", scopes: "admin:orgs:read admin:orgs:write")
        let data = node.data
        let user = try await SignetBinary.run(["users", "add", "olga@example.com", "--no-password", "--data", data])
        #expect(user.status == 0, "\(user)")
        let other = try await SignetBinary.run(["users", "add", "pat@example.com", "--no-password", "--data", data])
        let patID = other.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let remote = try await node.remote("admin:orgs:read admin:orgs:write")

        let created = try await SignetBinary.run(["orgs", "create", "acme", "--name", "Acme", "--owner", "olga@example.com"] + remote)
        #expect(created.status == 0 && created.stdout.hasPrefix("org_"), "\(created)")
        let list = try await SignetBinary.run(["orgs", "list"] + remote)
        #expect(list.status == 0 && list.stdout.contains("acme") && list.stdout.contains("Acme"), "\(list)")
        let renamed = try await SignetBinary.run(["orgs", "rename", "acme", "--name", "Acme Corp"] + remote)
        #expect(renamed.status == 0 && renamed.stdout.contains("\"Acme Corp\""), "\(renamed)")
        let role = try await SignetBinary.run(["orgs", "roles", "add", "acme", "billing"] + remote)
        #expect(role.status == 0, "\(role)")
        let added = try await SignetBinary.run(["orgs", "members", "add", "acme", "pat@example.com", "--role", "billing"] + remote)
        #expect(added.status == 0 && added.stdout.contains("added \(patID) to acme"), "\(added)")
        let again = try await SignetBinary.run(["orgs", "members", "add", "acme", "pat@example.com"] + remote)
        #expect(again.status == 0 && again.stdout.contains("already a member"), "\(again)")
        let roles = try await SignetBinary.run(["orgs", "members", "roles", "acme", patID, "--role", "admin", "--role", "billing"] + remote)
        #expect(roles.status == 0 && roles.stdout.contains("admin,billing"), "\(roles)")
        let invited = try await SignetBinary.run(["orgs", "invite", "acme", "quinn@example.com"] + remote)
        #expect(invited.status == 0 && invited.stdout.hasPrefix("inv_"), "\(invited)")
        let invitation = invited.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let invitations = try await SignetBinary.run(["orgs", "invitations", "acme"] + remote)
        #expect(invitations.stdout.contains(invitation) && invitations.stdout.contains("pending"), "\(invitations)")
        let revoked = try await SignetBinary.run(["orgs", "invitations", "revoke", "acme", invitation] + remote)
        #expect(revoked.status == 0, "\(revoked)")
        let shown = try await SignetBinary.run(["orgs", "show", "acme"] + remote)
        #expect(shown.stdout.contains("name:     Acme Corp") && shown.stdout.contains("members:  2")
            && shown.stdout.contains("billing"), "\(shown)")

        // The data folder's own view agrees, line for line.
        let localShow = try await SignetBinary.run(["orgs", "show", "acme", "--data", data])
        #expect(localShow.stdout == shown.stdout, "\(localShow)")
        let remoteMembers = try await SignetBinary.run(["orgs", "members", "acme"] + remote)
        let localMembers = try await SignetBinary.run(["orgs", "members", "acme", "--data", data])
        #expect(remoteMembers.status == 0 && remoteMembers.stdout == localMembers.stdout, "\(remoteMembers) \(localMembers)")
        let localInvitations = try await SignetBinary.run(["orgs", "invitations", "acme", "--data", data])
        let remoteInvitations = try await SignetBinary.run(["orgs", "invitations", "acme"] + remote)
        #expect(localInvitations.stdout == remoteInvitations.stdout && remoteInvitations.stdout.contains("revoked"), "\(remoteInvitations)")

        // Refusals: a bad token (401), a read-only token writing (403), a field the API names; nothing changes.
        let badToken = try await SignetBinary.run(["orgs", "create", "evil", "--name", "Evil", "--admin-url", node.admin, "--token", "nope"])
        #expect(badToken.status == 1 && badToken.stderr.contains("401 invalid_token"), "\(badToken)")
        let readOnly = try await node.remote("admin:orgs:read")
        let refused = try await SignetBinary.run(["orgs", "create", "evil", "--name", "Evil"] + readOnly)
        #expect(refused.status == 1 && refused.stderr.contains("403 insufficient_scope"), "\(refused)")
        let refusedDelete = try await SignetBinary.run(["orgs", "delete", "acme", "--yes"] + readOnly)
        #expect(refusedDelete.status == 1 && refusedDelete.stderr.contains("403 insufficient_scope"), "\(refusedDelete)")
        let badSlug = try await SignetBinary.run(["orgs", "create", "Not A Slug", "--name", "X"] + remote)
        #expect(badSlug.status == 1 && badSlug.stderr.contains("400 invalid_request") && badSlug.stderr.contains("slug"), "\(badSlug)")
        let noConfirm = try await SignetBinary.run(["orgs", "delete", "acme"] + remote)
        #expect(noConfirm.status == 64, "\(noConfirm)")
        let afterRefusals = try await SignetBinary.run(["orgs", "list", "--data", data])
        #expect(!afterRefusals.stdout.contains("evil") && afterRefusals.stdout.contains("acme"), "\(afterRefusals)")

        let removed = try await SignetBinary.run(["orgs", "members", "remove", "acme", patID] + remote)
        #expect(removed.status == 0, "\(removed)")
        let deleted = try await SignetBinary.run(["orgs", "delete", "acme", "--yes"] + remote)
        #expect(deleted.status == 0 && deleted.stdout.contains("deleted org_"), "\(deleted)")
        let empty = try await SignetBinary.run(["orgs", "list", "--data", data])
        #expect(!empty.stdout.contains("acme"), "\(empty)")
        // Every change was made by the admin client, not `cli`.
        let audit = try await SignetBinary.run(["audit", "list", "--event", "organization_created", "--data", data])
        #expect(audit.stdout.contains("\"actor\":\"ops\""), "\(audit)")
        await node.stop()
    }

    @Test func connectionsOnARemoteNode() async throws {
        let node = try await RemoteNode.start("remote-connections", scopes: "admin:connections:read admin:users:read", arguments: ["--demo"])
        let listed = try await SignetBinary.run(["connections", "list"] + (try await node.remote("admin:connections:read")))
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("Google (demo)") && listed.stdout.contains("status unused")
            && listed.stdout.contains("callback \(node.server.issuer)/oauth2/callback/"), "\(listed)")
        let badToken = try await SignetBinary.run(["connections", "list", "--admin-url", node.admin, "--token", "nope"])
        #expect(badToken.status == 1 && badToken.stderr.contains("401 invalid_token"), "\(badToken)")
        let refused = try await SignetBinary.run(["connections", "list"] + (try await node.remote("admin:users:read")))
        #expect(refused.status == 1 && refused.stderr.contains("403 insufficient_scope"), "\(refused)")
        let noToken = try await SignetBinary.run(["connections", "list", "--admin-url", node.admin])
        #expect(noToken.status == 64, "\(noToken)")
        await node.stop()
    }

    @Test func operatorRolesOnARemoteNode() async throws {
        // Giving the admin role hands out every admin scope, so the token holds them all.
        let every = (["clients", "users", "sessions", "consents", "keys", "orgs", "operators"].flatMap { ["admin:\($0):read", "admin:\($0):write"] }
            + ["admin:connections:read", "admin:audit:read"]).joined(separator: " ")
        let node = try await RemoteNode.start("remote-roles", scopes: every)
        let user = try await SignetBinary.run(["users", "add", "rita@example.com", "--no-password", "--data", node.data])
        let id = user.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let remote = try await node.remote(every)
        func role() async throws -> JSONValue? {
            let token = try await node.token("admin:operators:read")
            let response = try await AdminFixture.raw("GET", "/admin/v1/users/\(id)/operator-role", port: node.server.adminURL?.port ?? 0,
                                                      body: [], headers: ["Authorization": "Bearer \(token)"])
            #expect(response.status == 200 && response.header("ETag") != nil, "\(response)")
            return try response.json()["role"]
        }
        #expect(try await role() == .null)
        let set = try await SignetBinary.run(["users", "role", "rita@example.com", "admin"] + remote)
        #expect(set.status == 0 && set.stdout.contains("has the console role admin"), "\(set)")
        #expect(try await role() == .string("admin"))
        let viewer = try await SignetBinary.run(["users", "role", id, "viewer"] + remote)
        #expect(viewer.status == 0, "\(viewer)")
        #expect(try await role() == .string("viewer"))

        // admin:users:write does not make operators; a bad token is 401; a bad role never leaves the CLI.
        let usersOnly = try await node.remote("admin:users:read admin:users:write")
        let refused = try await SignetBinary.run(["users", "role", id, "admin"] + usersOnly)
        #expect(refused.status == 1 && refused.stderr.contains("403 insufficient_scope"), "\(refused)")
        // admin:operators:write without the role's scopes cannot give it either.
        let operatorsOnly = try await node.remote("admin:operators:read admin:operators:write admin:users:read")
        let escalation = try await SignetBinary.run(["users", "role", id, "admin"] + operatorsOnly)
        #expect(escalation.status == 1 && escalation.stderr.contains("403 insufficient_scope"), "\(escalation)")
        let readOnly = try await node.remote("admin:operators:read admin:users:read")
        let refusedWrite = try await SignetBinary.run(["users", "role", id, "none"] + readOnly)
        #expect(refusedWrite.status == 1 && refusedWrite.stderr.contains("403 insufficient_scope"), "\(refusedWrite)")
        let badToken = try await SignetBinary.run(["users", "role", id, "admin", "--admin-url", node.admin, "--token", "nope"])
        #expect(badToken.status == 1 && badToken.stderr.contains("401 invalid_token"), "\(badToken)")
        let badRole = try await SignetBinary.run(["users", "role", id, "root"] + remote)
        #expect(badRole.status == 64, "\(badRole)")
        #expect(try await role() == .string("viewer"))

        let none = try await SignetBinary.run(["users", "role", id, "none"] + remote)
        #expect(none.status == 0 && none.stdout.contains("has no console role"), "\(none)")
        #expect(try await role() == .null)
        let audit = try await SignetBinary.run(["audit", "list", "--event", "operator_role_changed", "--data", node.data])
        #expect(audit.stdout.split(separator: "\n").count == 3 && audit.stdout.contains("\"actor\":\"ops\""), "\(audit)")
        await node.stop()
    }
}
