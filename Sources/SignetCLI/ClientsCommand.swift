import Foundation
import SignetCore
import SignetServer
import SignetStore

/// `signet clients add|list|show|remove|rotate-secret`: works while the server runs (the
/// server's client cache follows the store's generation within a second).
enum ClientsCommand {
    static let options: Set<String> = CommonOptions.valued.union(RemoteAdmin.options).union([
        "name", "redirect-uri", "post-logout-redirect-uri", "scope", "grant-type", "auth-method", "id-token-alg",
        "access-token-lifetime", "refresh-token-lifetime", "id-token-lifetime", "resource", "application-type",
    ])
    static let flags: Set<String> = ["public", "confidential", "first-party", "allow-headless", "mfa-required"]

    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: options, flags: flags)
        guard let action = arguments.positionals.first else {
            throw UsageError("clients needs add, list, show, remove or rotate-secret")
        }
        // --admin-url: the same actions on a remote node, through its admin API.
        if let remote = try RemoteAdmin.from(arguments) {
            try await remote.clients(action, arguments)
            return 0
        }
        let environment = try ServerEnvironment.open(try CommonOptions.configuration(arguments))
        // The admin API's operations, so the CLI and the API apply (and audit) the same rules.
        let admin = AdminService(environment: environment)
        let store = environment.storage.clients
        switch action {
        case "add":
            let spec = try spec(arguments)
            let (record, secret) = try admin.createClient(spec)
            Output.print("added \(record.isPublic ? "public" : "confidential") client \(record.id)")
            if let secret {
                Output.print("client_secret: \(secret)")
                Output.print("Store this secret now: it is shown only once and Signet keeps only a hash of it.")
            }
        case "list":
            let clients = try store.allClients()
            Output.print("ID                               TYPE          GRANTS                                   NAME")
            for client in clients {
                Output.print("\(pad(client.id, 32)) \(pad(client.isPublic ? "public" : "confidential", 13)) \(pad(client.grantTypes.joined(separator: ","), 40)) \(client.name)")
            }
        case "show":
            let record = try existing(arguments, store)
            show(record)
        case "remove":
            let id = try clientID(arguments)
            guard try store.client(id: id) != nil else { throw ClientsCommandError("no client has id \(id)") }
            try admin.deleteClient(id)
            Output.print("removed client \(id)")
        case "rotate-secret":
            let id = try clientID(arguments)
            let secret = try admin.rotateSecret(id)
            Output.print("client_secret: \(secret)")
            Output.print("The previous secret no longer works. Store this one now: it is shown only once.")
        default:
            throw UsageError("unknown clients action \"\(action)\"; use add, list, show, remove or rotate-secret")
        }
        return 0
    }

    /// The client described by the flags of `clients add`.
    static func spec(_ arguments: ParsedArguments) throws -> ClientSpec {
        guard arguments.positionals.count == 2 else { throw UsageError("clients add needs exactly one client id") }
        if arguments.flag("public") && arguments.flag("confidential") {
            throw UsageError("--public and --confidential exclude each other")
        }
        let grants = arguments.all("grant-type")
        var spec = ClientSpec(
            id: arguments.positionals[1], name: arguments.value("name"), isPublic: !arguments.flag("confidential"),
            redirectURIs: arguments.all("redirect-uri"), postLogoutRedirectURIs: arguments.all("post-logout-redirect-uri"),
            scope: arguments.value("scope"), grantTypes: grants.isEmpty ? nil : grants,
            firstParty: arguments.flag("first-party"), authenticationMethod: arguments.value("auth-method"),
            idTokenAlgorithm: arguments.value("id-token-alg"),
            lifetimes: ClientTokenLifetimes(accessToken: try arguments.integer("access-token-lifetime"),
                                            refreshToken: try arguments.integer("refresh-token-lifetime"),
                                            idToken: try arguments.integer("id-token-lifetime")),
            allowHeadless: arguments.flag("allow-headless"), allowedResources: arguments.all("resource"))
        spec.mfaRequired = arguments.flag("mfa-required")
        if let type = arguments.value("application-type") {
            guard let parsed = ApplicationType(rawValue: type) else { throw UsageError("--application-type must be native, web, service or api") }
            spec.applicationType = parsed
        }
        return spec
    }

    static func show(_ record: ClientRecord) {
        // Never the secret or its hash: only whether one is set.
        var lines = [
            "id:                         \(record.id)",
            "name:                       \(record.name)",
            "type:                       \(record.isPublic ? "public" : "confidential")",
            "application_type:           \(Client.ExtraSettings(record).applicationType.rawValue)",
            "secret:                     \(record.secretHash == nil ? "none" : "set (hashed; rotate with signet clients rotate-secret)")",
            "token_endpoint_auth_method: \(record.tokenEndpointAuthMethod)",
            "grant_types:                \(record.grantTypes.joined(separator: " "))",
            "scope:                      \(record.allowedScopes.joined(separator: " "))",
            "first_party:                \(record.firstParty)",
            "id_token_algorithm:         \(record.idTokenAlgorithm)",
            "allow_headless:             \(record.allowHeadless)",
        ]
        if (try? Client(record: record))?.requiresMFA == true { lines.append("mfa_required:               true") }
        for uri in record.redirectURIs { lines.append("redirect_uri:               \(uri)") }
        for uri in record.postLogoutRedirectURIs { lines.append("post_logout_redirect_uri:   \(uri)") }
        for uri in record.allowedResources { lines.append("resource:                   \(uri)") }
        if let seconds = record.lifetimes.accessToken { lines.append("access_token_lifetime:      \(seconds)") }
        if let seconds = record.lifetimes.refreshToken { lines.append("refresh_token_lifetime:     \(seconds)") }
        if let seconds = record.lifetimes.idToken { lines.append("id_token_lifetime:          \(seconds)") }
        Output.print(lines.joined(separator: "\n"))
    }

    static func clientID(_ arguments: ParsedArguments) throws -> String {
        guard arguments.positionals.count == 2 else { throw UsageError("clients \(arguments.positionals[0]) needs the client id") }
        return arguments.positionals[1]
    }

    static func existing(_ arguments: ParsedArguments, _ store: any ClientStore) throws -> ClientRecord {
        let id = try clientID(arguments)
        guard let record = try store.client(id: id) else { throw ClientsCommandError("no client has id \(id)") }
        return record
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}

/// A clients action that cannot be done (unknown client, rule broken).
struct ClientsCommandError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
