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
    /// `{issuer}/oauth2/callback/`: the start of every connection's redirect URI at its provider.
    let callbackPrefix: String

    /// Builds the providers: resolves each connection's secrets and loads Apple keys. Throws
    /// `ConfigurationIssue` when a secret is missing or a key unreadable.
    public init(configuration: SignetConfiguration, clock: @escaping @Sendable () -> Date) throws {
        var providers: [String: UpstreamProvider] = [:]
        let callbackPrefix = configuration.issuer + Routes.federationCallbackPrefix
        for configured in configuration.connections {
            let connection = configured.connection
            // A disabled connection is never used: its secrets need not be present. An Apple
            // connection without a key serves native ID-token sign-in only (no web flow).
            guard connection.enabled, !Self.isNativeOnly(configured) else { continue }
            let credentials = try configured.credentials(relativeTo: configuration.dataDirectory)
            let http = try Self.outboundHTTP(for: connection)
            do {
                providers[connection.id] = try UpstreamProvider(
                    connection: connection, credentials: credentials,
                    callbackURL: callbackPrefix + connection.id, http: http, clock: clock)
            } catch {
                throw ConfigurationIssue(path: "connections.\(connection.id)", message: error.description)
            }
        }
        self.connections = configuration.connections.map(\.connection)
        self.callbackPrefix = callbackPrefix
        self.providers = providers
        self.homeRealm = HomeRealmDirectory(connections: connections.filter { providers[$0.id] != nil })
    }

    /// The HTTP client for one provider: its time limit, 1 MiB, its CA file if any (which must
    /// be readable now, so a typo stops the start rather than every sign-in).
    static func outboundHTTP(for connection: Connection) throws(ConfigurationIssue) -> OutboundHTTP {
        if let file = connection.trustedCertificatesFile, !FileManager.default.isReadableFile(atPath: file) {
            throw ConfigurationIssue(path: "connections.\(connection.id).ca_file", message: "cannot read \(file)")
        }
        return OutboundHTTP(timeLimit: TimeInterval(connection.timeoutSeconds), sizeLimit: 1024 * 1024, userAgent: "Signet",
                            trustedCertificatesFile: connection.trustedCertificatesFile)
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

    /// Signet's redirect URI to register at the provider of connection `id` (also for a disabled one).
    func callbackURL(_ id: String) -> String { callbackPrefix + id }
}
