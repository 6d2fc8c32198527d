import Foundation
import SignetFederation
import SignetServer

/// `signet connections list`: the upstream connections of the configuration, with the callback
/// URL to register at each provider. Secrets are never printed (only where they come from). With
/// `--admin-url`, a remote node's connections with the status and last error it saw.
enum ConnectionsCommand {
    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(RemoteAdmin.options), flags: [])
        guard arguments.positionals == ["list"] else { throw UsageError("connections needs list") }
        if let remote = try RemoteAdmin.from(arguments) {
            try await remote.connections(arguments)
            return 0
        }
        let configuration = try CommonOptions.configuration(arguments)
        if configuration.connections.isEmpty {
            Output.print("no connections configured (add a \"connections\" array to the configuration file)")
            return 0
        }
        Output.print(lines(configuration).joined(separator: "\n"))
        return 0
    }

    /// The listing, one line per connection after a header.
    static func lines(_ configuration: SignetConfiguration) -> [String] {
        var lines = [header]
        for configured in configuration.connections {
            let connection = configured.connection
            let callback = configuration.issuer + Routes.federationCallbackPrefix + connection.id
            lines.append(line(id: connection.id, type: connection.type.rawValue, enabled: connection.enabled, name: connection.displayName,
                              issuer: connection.issuer))
            var details = "    callback \(callback)  client_id \(connection.clientID)"
            if let secret = configured.clientSecret { details += "  secret \(secret)" }
            if let key = configured.privateKey { details += "  key \(key)" }
            if !connection.homeRealmDomains.isEmpty { details += "  domains \(connection.homeRealmDomains.joined(separator: ","))" }
            if connection.allowLinking { details += "  linking" }
            if connection.nativeSignIn { details += "  native" }
            lines.append(details)
        }
        return lines
    }

    static let header = "ID                   TYPE    ENABLED  NAME                     ISSUER / CALLBACK"

    /// A connection's first line (the data folder's and `--admin-url`'s listing).
    static func line(id: String, type: String, enabled: Bool, name: String, issuer: String) -> String {
        pad(id, 20) + " " + pad(type, 7) + " " + pad(enabled ? "yes" : "no", 8) + " " + pad(name, 24) + " " + issuer
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
