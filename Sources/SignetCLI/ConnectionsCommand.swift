import Foundation
import SignetFederation
import SignetServer

/// `signet connections list`: the upstream connections of the configuration, with the callback
/// URL to register at each provider. Secrets are never printed (only where they come from).
enum ConnectionsCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued, flags: [])
        guard arguments.positionals == ["list"] else { throw UsageError("connections needs list") }
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
        var lines = ["ID                   TYPE    ENABLED  NAME                     ISSUER / CALLBACK"]
        for configured in configuration.connections {
            let connection = configured.connection
            let callback = configuration.issuer + Routes.federationCallbackPrefix + connection.id
            var line = pad(connection.id, 20) + " " + pad(connection.type.rawValue, 7) + " " + pad(connection.enabled ? "yes" : "no", 8)
            line += " " + pad(connection.displayName, 24) + " " + connection.issuer
            lines.append(line)
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

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
