import Foundation
import SignetClientCore
import SignetCore
import SignetFederation
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting

/// A running Signet with Google- and Apple-style mock providers configured as connections for
/// native ID-token sign-in, and the clients the tests need.
final class NativeSignInFixture: Sendable {
    let google: MockProvider
    let apple: MockProvider
    /// A generic OpenID provider (connection `oidc`).
    let generic: MockProvider
    let server: TestServer
    let http = OutboundHTTP()
    static let tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"

    let appleKeyPath: String

    /// `adjust` edits the `google` and `oidc` connections (domains, hosted domain).
    init(allowLinking: Bool = false, adjust: (inout Connection) -> Void = { _ in }) throws {
        let clock = TestServer.makeClock()
        // Apple connections need a Sign in with Apple key for the browser flow (not used natively).
        let der = try PrivateKey.generate(.p256).pkcs8DER
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let appleKeyPath = NSTemporaryDirectory() + "signet-apple-\(RandomToken.make(byteCount: 8)).p8"
        try Data("-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: appleKeyPath))
        self.appleKeyPath = appleKeyPath
        let google = try MockProvider(flavor: .google, clientID: "1234-android.apps.googleusercontent.com", clock: { clock.now })
        let apple = try MockProvider(flavor: .apple, clientID: "com.example.app", clock: { clock.now })
        let generic = try MockProvider(flavor: .generic, clientID: "oidc-native-app", clock: { clock.now })
        self.google = google
        self.apple = apple
        self.generic = generic
        server = try TestServer(clock: clock) { configuration in
            func connection(_ id: String, _ type: ConnectionType, _ provider: MockProvider, native: Bool = true,
                            enabled: Bool = true) -> ConfiguredConnection {
                let apple = type == .apple
                var made = Connection(
                    id: id, type: type, clientID: "web-client", issuer: provider.issuer, allowLinking: allowLinking,
                    enabled: enabled, appleTeamID: apple ? "TEAM123456" : nil, appleKeyID: apple ? "KEY1234567" : nil,
                    nativeClientIDs: [provider.clientID], nativeSignIn: native)
                if id == "google" || id == "oidc" { adjust(&made) }
                return ConfiguredConnection(connection: made,
                    clientSecret: apple ? nil : .environment("HOME"), privateKey: apple ? .file(appleKeyPath) : nil)
            }
            configuration.connections = [
                connection("google", .google, google),
                connection("apple", .apple, apple),
                connection("oidc", .oidc, generic),
                connection("google-browser-only", .google, google, native: false),
                connection("google-disabled", .google, google, enabled: false),
            ]
        }
        let registration = ClientRegistration(server: server.application.authorizationServer)
        let scope = "openid profile email offline_access"
        _ = try registration.register(ClientSpec(id: "native-app", isPublic: true, scope: scope,
                                                 grantTypes: [Self.tokenExchange, "refresh_token"], firstParty: true))
        _ = try registration.register(ClientSpec(id: "other-native-app", isPublic: true, scope: scope,
                                                 grantTypes: [Self.tokenExchange], firstParty: true))
        _ = try registration.register(ClientSpec(id: "third-party", isPublic: true, redirectURIs: ["com.example.third:/cb"],
                                                 scope: scope, grantTypes: ["authorization_code"]))
    }

    func stop() {
        server.stop()
        google.stop()
        apple.stop()
        generic.stop()
        try? FileManager.default.removeItem(atPath: appleKeyPath)
    }

    var core: AuthorizationServer { server.application.authorizationServer }

    func userCount() throws -> Int { try core.storage.users.allUsers().count }

    func post(_ path: String, _ form: [(String, String)]) async throws -> (status: Int, json: [String: JSONValue], headers: [String: String]) {
        let response = try await http.postForm(server.url(path), form)
        let object = (try? JSONValue.parse(response.body).objectValue) ?? [:]
        return (response.status, object, response.headers)
    }

    /// A fresh nonce from `POST /native/nonce`.
    func nonce(client: String = "native-app") async throws -> String {
        let response = try await post("/native/nonce", [("client_id", client)])
        guard response.status == 200, let nonce = response.json["nonce"]?.stringValue else {
            throw TestingError("no nonce: \(response.status) \(response.json)")
        }
        return nonce
    }

    /// The token exchange.
    func exchange(_ token: String, connection: String? = "google", nonce: String? = nil, client: String = "native-app",
                  scope: String = "openid email offline_access", tokenType: String? = NativeSignInFixture.idTokenType,
                  extra: [(String, String)] = []) async throws -> (status: Int, json: [String: JSONValue], headers: [String: String]) {
        var form = [("grant_type", Self.tokenExchange), ("subject_token", token), ("client_id", client), ("scope", scope)]
        if let tokenType { form.append(("subject_token_type", tokenType)) }
        if let connection { form.append(("connection", connection)) }
        if let nonce { form.append(("nonce", nonce)) }
        return try await post("/token", form + extra)
    }

    /// The claims of one of Signet's own JWTs (signature checked elsewhere).
    static func claims(_ jwt: String) throws -> [String: JSONValue] {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3, let bytes = Base64URL.decode(parts[1]),
              let object = try JSONValue.parse(bytes).objectValue else { throw TestingError("not a JWT") }
        return object
    }
}
