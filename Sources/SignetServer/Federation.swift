import Foundation
import SignetClientCore
import SignetFederation

/// The upstream connections of a running server: one `UpstreamProvider` per enabled connection
/// (a disabled one is still listed, so its callback is recognised and refused), and home-realm
/// discovery.
public final class Federation: Sendable {
    /// Connections in configuration order.
    public let connections: [Connection]
    /// Home-realm discovery over the enabled connections.
    public let homeRealm: HomeRealmDirectory
    let providers: [String: UpstreamProvider]

    /// Builds the providers: resolves each connection's secrets and loads Apple keys. Throws
    /// `ConfigurationIssue` when a secret is missing or a key unreadable.
    public init(configuration: SignetConfiguration, clock: @escaping @Sendable () -> Date) throws {
        var providers: [String: UpstreamProvider] = [:]
        for configured in configuration.connections {
            let connection = configured.connection
            // A disabled connection is never used: its secrets need not be present. An Apple
            // connection without a key serves native ID-token sign-in only (no web flow).
            guard connection.enabled, !Self.isNativeOnly(configured) else { continue }
            let credentials = try configured.credentials(relativeTo: configuration.dataDirectory)
            let http = OutboundHTTP(timeLimit: TimeInterval(connection.timeoutSeconds), sizeLimit: 1024 * 1024, userAgent: "Signet")
            do {
                providers[connection.id] = try UpstreamProvider(
                    connection: connection, credentials: credentials,
                    callbackURL: configuration.issuer + Routes.federationCallbackPrefix + connection.id, http: http, clock: clock)
            } catch {
                throw ConfigurationIssue(path: "connections.\(connection.id)", message: error.description)
            }
        }
        self.connections = configuration.connections.map(\.connection)
        self.providers = providers
        self.homeRealm = HomeRealmDirectory(connections: connections.filter { providers[$0.id] != nil })
    }

    /// Whether a connection can only serve native ID-token sign-in: an Apple connection without
    /// the team id, key id and private key the web flow's client secret needs.
    static func isNativeOnly(_ configured: ConfiguredConnection) -> Bool {
        let connection = configured.connection
        return connection.type == .apple && (connection.appleTeamID == nil || connection.appleKeyID == nil || configured.privateKey == nil)
    }

    /// The enabled connections with a web flow, in configuration order (the sign-in buttons and
    /// the headless API's providers).
    public var enabled: [Connection] { connections.filter { $0.enabled && providers[$0.id] != nil } }

    /// The provider of an enabled connection, or nil.
    func enabledProvider(_ id: String) -> UpstreamProvider? { providers[id] }

    /// Whether `id` names a configured but disabled connection.
    func isDisabled(_ id: String) -> Bool { connections.contains { $0.id == id && !$0.enabled } }

    /// CSP `form-action` sources a sign-in form must allow so that home-realm discovery (a form
    /// POST answered by redirects to the provider) is not blocked: the origins of the mapped
    /// connections' issuers and configured authorization endpoints.
    var homeRealmFormTargets: [String] {
        var targets: [String] = []
        for connection in enabled where !connection.homeRealmDomains.isEmpty {
            for url in [connection.issuer, connection.authorizationEndpoint].compactMap({ $0 }) {
                if let source = HTMLPage.cspSource(for: url), !targets.contains(source) { targets.append(source) }
            }
        }
        return targets
    }
}
