import Foundation
import SignetCrypto
import SignetFederation
import SignetMockProvider
import SignetServer

/// `signet serve --demo`: a mock "Google" (an OpenID provider with real keys, on another
/// loopback port, auto-approving one demo user) and a `google-demo` connection to it, so a
/// newcomer can click "Sign in with Google (demo)" and watch the whole federated dance.
enum DemoProvider {
    static let connectionID = "google-demo"

    /// Starts the mock and adds the connection (unless the configuration already has one with
    /// that id). The client secret is written to a file in the data folder (mode 0600).
    static func start(_ configuration: inout SignetConfiguration) throws -> MockProvider {
        let secret = Base64URL.encode(SecureRandom.bytes(32))
        let mock = try MockProvider(flavor: .google, clientID: "signet-demo", clientSecret: secret,
                                    user: MockUser(subject: "demo-google-user", email: "google-user@example.com", name: "Gail Google"))
        guard !configuration.connections.contains(where: { $0.connection.id == connectionID }) else { return mock }
        let directory = configuration.dataDirectory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let name = "demo-google-client-secret"
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationIssue(path: "", message: "cannot write \(path)")
        }
        let connection = Connection(id: connectionID, type: .google, clientID: mock.clientID, displayName: "Google (demo)",
                                    issuer: mock.issuer)
        // Secret file references are resolved against the data folder: name the file only, so a
        // relative --data (make demo's ./signet-data) is not prefixed twice.
        configuration.connections.append(ConfiguredConnection(connection: connection, clientSecret: .file(name)))
        return mock
    }

    /// The lines printed at start-up.
    static func lines(_ mock: MockProvider) -> [String] {
        [
            "demo: mock Google at \(mock.issuer) (connection \(connectionID); signs in google-user@example.com, no password)",
            "demo: on the sign-in page, click \"Sign in with Google (demo)\" to run the federated flow",
        ]
    }
}
