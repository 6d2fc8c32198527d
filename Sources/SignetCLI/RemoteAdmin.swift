import Foundation
import SignetClientCore
import SignetCore
import SignetJOSE
import SignetServer

/// `signet clients|users|keys|audit|orgs|connections … --admin-url URL --token T` (or `SIGNET_ADMIN_URL`, `SIGNET_ADMIN_TOKEN`):
/// the same actions on a remote node, through its admin API (`/admin/v1`) instead of the local
/// data folder. Writes read the resource first and send its ETag in `If-Match`, as the API asks.
struct RemoteAdmin {
    let base: URL
    let token: String
    let http = OutboundHTTP(timeLimit: 30, userAgent: "signet-cli")

    /// The options every remote-capable command accepts.
    static let options: Set<String> = ["admin-url", "token"]

    /// The remote target when `--admin-url` (or `SIGNET_ADMIN_URL`) is given; nil: work locally.
    static func from(_ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RemoteAdmin? {
        guard let text = arguments.value("admin-url") ?? environment["SIGNET_ADMIN_URL"], !text.isEmpty else {
            if arguments.value("token") != nil { throw UsageError("--token needs --admin-url") }
            return nil
        }
        guard let url = URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text), let scheme = url.scheme,
              scheme == "https" || scheme == "http", url.host != nil else {
            throw UsageError("--admin-url must be an http or https URL, such as http://127.0.0.1:9080")
        }
        guard let token = arguments.value("token") ?? environment["SIGNET_ADMIN_TOKEN"], !token.isEmpty else {
            throw UsageError("--admin-url needs --token TOKEN (or SIGNET_ADMIN_TOKEN): an admin access token")
        }
        return RemoteAdmin(base: url, token: token)
    }

    /// One call; a refusal becomes an error with the API's field and message.
    func call(_ method: String, _ path: String, json: JSONValue? = nil, ifMatch: String? = nil) async throws -> (status: Int, body: JSONValue?, etag: String?) {
        guard let url = URL(string: base.absoluteString + path) else { throw UsageError("bad path \(path)") }
        var headers = ["Authorization": "Bearer \(token)", "Accept": "application/json"]
        if json != nil { headers["Content-Type"] = "application/json" }
        if let ifMatch { headers["If-Match"] = ifMatch }
        let response: OutboundResponse
        do { response = try await http.send(method: method, url: url, body: json?.serialized(), headers: headers) } catch {
            throw RemoteAdminError("cannot reach \(base.absoluteString): \(error)")
        }
        let body = response.body.isEmpty ? nil : try? JSONValue.parse(response.body)
        guard (200..<300).contains(response.status) else {
            let field = body?["field"]?.stringValue.map { "\($0): " } ?? ""
            let message = body?["message"]?.stringValue ?? "HTTP \(response.status)"
            throw RemoteAdminError("the admin API refused (\(response.status) \(body?["error"]?.stringValue ?? "")): \(field)\(message)")
        }
        let etag = response.headers.first { $0.key.lowercased() == "etag" }?.value
        return (response.status, body, etag)
    }

    /// Every item of a paged list, following `next_cursor`.
    func all(_ path: String) async throws -> [JSONValue] {
        var items: [JSONValue] = [], cursor: String?
        repeat {
            let page = try await call("GET", path + "?limit=200" + (cursor.map { "&cursor=\(Self.segment($0))" } ?? ""))
            items += page.body?["items"]?.arrayValue ?? []
            cursor = page.body?["next_cursor"]?.stringValue
        } while cursor != nil
        return items
    }

    /// A path segment, percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    // MARK: clients

    func clients(_ action: String, _ arguments: ParsedArguments) async throws {
        switch action {
        case "add":
            let spec = try ClientsCommand.spec(arguments)
            var body: [String: JSONValue] = ["id": .string(spec.id), "type": .string(spec.isPublic ? "public" : "confidential"),
                                             "redirect_uris": .array(spec.redirectURIs.map(JSONValue.string)),
                                             "post_logout_redirect_uris": .array(spec.postLogoutRedirectURIs.map(JSONValue.string)),
                                             "first_party": .bool(spec.firstParty), "allow_headless": .bool(spec.allowHeadless),
                                             "resources": .array(spec.allowedResources.map(JSONValue.string))]
            if let name = spec.name { body["name"] = .string(name) }
            if let scope = spec.scope { body["scope"] = .string(scope) }
            if let grants = spec.grantTypes { body["grant_types"] = .array(grants.map(JSONValue.string)) }
            if let method = spec.authenticationMethod { body["token_endpoint_auth_method"] = .string(method) }
            if let type = spec.applicationType { body["application_type"] = .string(type.rawValue) }
            if let algorithm = spec.idTokenAlgorithm { body["id_token_algorithm"] = .string(algorithm) }
            if let seconds = spec.lifetimes.accessToken { body["access_token_lifetime"] = .int(Int64(seconds)) }
            if let seconds = spec.lifetimes.refreshToken { body["refresh_token_lifetime"] = .int(Int64(seconds)) }
            if let seconds = spec.lifetimes.idToken { body["id_token_lifetime"] = .int(Int64(seconds)) }
            let created = try await call("POST", "/admin/v1/clients", json: .object(body))
            Output.print("added \(spec.isPublic ? "public" : "confidential") client \(spec.id)")
            if let secret = created.body?["client_secret"]?.stringValue {
                Output.print("client_secret: \(secret)")
                Output.print("Store this secret now: it is shown only once and Signet keeps only a hash of it.")
            }
        case "list":
            Output.print("ID                               TYPE          GRANTS                                   NAME")
            for client in try await all("/admin/v1/clients") {
                let grants = (client["grant_types"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ",")
                Output.print("\(ClientsCommand.pad(client["id"]?.stringValue ?? "", 32)) \(ClientsCommand.pad(client["type"]?.stringValue ?? "", 13)) \(ClientsCommand.pad(grants, 40)) \(client["name"]?.stringValue ?? "")")
            }
        case "show":
            let got = try await call("GET", "/admin/v1/clients/\(Self.segment(try ClientsCommand.clientID(arguments)))")
            Output.print(got.body.map { String(decoding: AdminJSONText.pretty($0), as: UTF8.self) } ?? "")
        case "remove":
            let path = "/admin/v1/clients/\(Self.segment(try ClientsCommand.clientID(arguments)))"
            let current = try await call("GET", path)
            _ = try await call("DELETE", path, ifMatch: current.etag)
            Output.print("removed client \(try ClientsCommand.clientID(arguments))")
        case "rotate-secret":
            let path = "/admin/v1/clients/\(Self.segment(try ClientsCommand.clientID(arguments)))"
            let current = try await call("GET", path)
            let rotated = try await call("POST", path + "/secret", ifMatch: current.etag)
            Output.print("client_secret: \(rotated.body?["client_secret"]?.stringValue ?? "")")
            Output.print("The previous secret no longer works. Store this one now: it is shown only once.")
        default:
            throw UsageError("unknown clients action \"\(action)\"; use add, list, show, remove or rotate-secret")
        }
    }

    // MARK: users

    func users(_ action: String, _ arguments: ParsedArguments, password: () throws -> String?) async throws {
        switch action {
        case "add":
            guard arguments.positionals.count == 2 else { throw UsageError("users add needs exactly one EMAIL") }
            var body: [String: JSONValue] = ["email": .string(arguments.positionals[1])]
            if let name = arguments.value("name") { body["name"] = .string(name) }
            if let password = try password() { body["password"] = .string(password) }
            let created = try await call("POST", "/admin/v1/users", json: .object(body))
            Output.print(created.body?["id"]?.stringValue ?? "")
        case "list":
            Output.print("SUB                     STATUS    EMAIL")
            for user in try await all("/admin/v1/users") {
                let status = user["disabled"]?.boolValue == true ? "disabled" : "active"
                Output.print("\((user["id"]?.stringValue ?? "").padding(toLength: 23, withPad: " ", startingAt: 0)) \(status.padding(toLength: 9, withPad: " ", startingAt: 0)) \(user["email"]?.stringValue ?? "")")
            }
        case "show":
            let user = try await find(arguments)
            Output.print(String(decoding: AdminJSONText.pretty(user.body), as: UTF8.self))
        case "disable", "enable":
            let user = try await find(arguments)
            _ = try await call("POST", "/admin/v1/users/\(Self.segment(user.id))/\(action)", ifMatch: user.etag)
            Output.print("\(action)d \(user.id)")
        case "revoke":
            let user = try await find(arguments)
            let result = try await call("POST", "/admin/v1/users/\(Self.segment(user.id))/revoke")
            Output.print("revoked \(user.id): ended \(result.body?["sessions"]?.intValue ?? 0) session(s), revoked \(result.body?["grants"]?.intValue ?? 0) grant(s)")
        case "unlock-totp":
            let user = try await find(arguments)
            let result = try await call("POST", "/admin/v1/users/\(Self.segment(user.id))/unlock-totp")
            Output.print(result.body?["unlocked"]?.boolValue == true ? "unlocked the authenticator app of \(user.id)" : "\(user.id) has no locked authenticator app")
        case "role":
            try await operatorRole(arguments)
        case "delete":
            let user = try await find(arguments)
            guard arguments.flag("yes") else {
                throw UsageError("users delete removes the account, its links, sessions and tokens for good; add --yes to confirm")
            }
            _ = try await call("DELETE", "/admin/v1/users/\(Self.segment(user.id))", ifMatch: user.etag)
            Output.print("deleted \(user.id)")
        default:
            throw UsageError("users \(action) is not available with --admin-url; use add, list, show, disable, enable, revoke, role or delete")
        }
    }

    // MARK: keys

    func keys(_ action: String, _ arguments: ParsedArguments) async throws {
        switch action {
        case "list":
            guard arguments.positionals.count == 1 else { throw UsageError("keys list takes no argument") }
            Output.print("KID                                          ALG    STATUS     SIGNS FROM            UNPUBLISHED AFTER")
            for key in try await call("GET", "/admin/v1/keys").body?["items"]?.arrayValue ?? [] {
                let kid = (key["id"]?.stringValue ?? "").padding(toLength: 44, withPad: " ", startingAt: 0)
                let algorithm = (key["algorithm"]?.stringValue ?? "").padding(toLength: 6, withPad: " ", startingAt: 0)
                let status = (key["status"]?.stringValue ?? "").padding(toLength: 10, withPad: " ", startingAt: 0)
                Output.print("\(kid) \(algorithm) \(status) \(key["activates_at"]?.stringValue ?? "")  \(key["remove_after"]?.stringValue ?? "-")")
            }
        case "rotate":
            guard arguments.positionals.count == 1 else { throw UsageError("keys rotate takes no argument; use --algorithm") }
            var body: [String: JSONValue] = [:]
            if let algorithm = arguments.value("algorithm") { body["algorithm"] = .string(algorithm) }
            if let prepublish = try arguments.integer("prepublish") { body["prepublish_seconds"] = .int(Int64(prepublish)) }
            for key in try await call("POST", "/admin/v1/keys/rotate", json: .object(body)).body?["items"]?.arrayValue ?? [] {
                Output.print("rotated \(key["algorithm"]?.stringValue ?? ""): new key \(key["id"]?.stringValue ?? "") is published now and signs from \(key["activates_at"]?.stringValue ?? "")")
            }
        case "retire":
            guard arguments.positionals.count == 2 else { throw UsageError("keys retire needs the key id (see signet keys list)") }
            let keyID = arguments.positionals[1]
            let retired = try await call("POST", "/admin/v1/keys/\(Self.segment(keyID))/retire")
            Output.print("retired \(keyID): it no longer signs and stays published while tokens it signed may live")
            if let replacement = retired.body?["replacement"], !replacement.isNull {
                Output.print("created \(replacement["id"]?.stringValue ?? "") (\(replacement["algorithm"]?.stringValue ?? "")), which signs from now on")
            }
        default:
            throw UsageError("unknown keys action \"\(action)\"; use list, rotate or retire")
        }
    }

    // MARK: audit

    /// The newest `limit` events matching the filters, newest first, over as many pages as it takes.
    func audit(since: Date?, event: String?, subject: String?, client: String?, actor: String?, limit: Int) async throws -> [JSONValue] {
        var query: [(String, String)] = []
        if let since {
            let formatter = ISO8601DateFormatter()
            query.append(("since", formatter.string(from: since)))
        }
        if let event { query.append(("event", event)) }
        if let subject { query.append(("subject", subject)) }
        if let client { query.append(("client", client)) }
        if let actor { query.append(("actor", actor)) }
        var events: [JSONValue] = [], cursor: String?
        repeat {
            var pairs = query + [("limit", String(min(200, limit - events.count)))]
            if let cursor { pairs.append(("cursor", cursor)) }
            let page = try await call("GET", "/admin/v1/audit?" + pairs.map { "\($0.0)=\(Self.segment($0.1))" }.joined(separator: "&"))
            events += page.body?["items"]?.arrayValue ?? []
            cursor = page.body?["next_cursor"]?.stringValue
        } while cursor != nil && events.count < limit
        return events
    }

    /// The user named by id or email (an email is looked up with the list's filter, matched exactly).
    private func find(_ arguments: ParsedArguments) async throws -> (id: String, body: JSONValue, etag: String?) {
        guard arguments.positionals.count == 2 else { throw UsageError("\(arguments.positionals[0]) needs one user id or email") }
        return try await user(arguments.positionals[1])
    }

    /// The user with this id or email.
    func user(_ idOrEmail: String) async throws -> (id: String, body: JSONValue, etag: String?) {
        var id = idOrEmail
        if id.contains("@") {
            let page = try await call("GET", "/admin/v1/users?limit=200&filter=\(Self.segment(id))")
            guard let match = (page.body?["items"]?.arrayValue ?? []).first(where: { $0["email"]?.stringValue == id.lowercased() }),
                  let found = match["id"]?.stringValue else { throw UsageError("no such user") }
            id = found
        }
        let got = try await call("GET", "/admin/v1/users/\(Self.segment(id))")
        return (id, got.body ?? .null, got.etag)
    }
}

/// A refusal or failure of the remote admin API.
struct RemoteAdminError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
