import Foundation
import SignetCore
import SignetCrypto
import SignetSQLite
import SignetStore
import SignetWire

/// A complete authorization server over a temporary SQLite store and a ManualClock, with a few clients
/// and one user, for unit tests of the interactive flow.
final class CoreFixture: Sendable {
    let clock = ManualClock()
    let storage: SQLiteStorage
    let server: AuthorizationServer
    let flow: AuthorizationFlow
    let users: UserService
    let keyRing: SigningKeyRing
    static let password = "correct horse battery"
    static let cheap = Argon2idParameters(opsLimit: 1, memLimitBytes: 8 * 1024 * 1024)

    init(policy configure: (inout ServerPolicy) -> Void = { _ in }) throws {
        storage = try SQLiteStorage.temporary()
        var policy = ServerPolicy(issuer: "https://id.example.com")
        configure(&policy)
        let masterKey = try MasterKey(material: [UInt8](repeating: 7, count: 32))
        keyRing = SigningKeyRing(store: storage.keys, encryptionKey: masterKey.keyEncryptionKey, clock: clock, retentionSeconds: 3600)
        server = AuthorizationServer(policy: policy, storage: storage, masterKey: masterKey, keyRing: keyRing, clock: clock,
                                     random: SystemRandomSource())
        flow = AuthorizationFlow(server: server, gate: SignInGate(server: server, realms: NoHomeRealms(), requireVerifiedEmail: false))
        users = UserService(storage: storage, passwordParameters: Self.cheap, clock: clock, random: SystemRandomSource())
        for (id, firstParty, redirect) in [("first", true, "com.example.first:/cb"),
                                           ("web", false, "https://app.example.com/cb"),
                                           ("native", false, "com.example.native:/cb")] {
            try storage.clients.upsertClient(ClientRecord(
                id: id, name: "Client \(id)", isPublic: true, firstParty: firstParty, redirectURIs: [redirect],
                postLogoutRedirectURIs: [redirect + "/out"], allowedScopes: ["openid", "profile", "email", "offline_access"],
                grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none",
                allowedResources: ["https://api.example.com"], createdAt: clock.now, updatedAt: clock.now))
        }
    }

    func client(_ id: String) throws -> Client {
        guard let client = try server.clients.client(id: id) else { throw FixtureError("no client \(id)") }
        return client
    }

    func request(_ clientID: String, scope: String = "openid profile", prompt: [String] = [], maxAge: Int? = nil,
                 hintedSubject: String? = nil) throws -> AuthorizationRequest {
        let client = try client(clientID)
        var parameters: [(String, String)] = [
            ("client_id", clientID), ("redirect_uri", client.redirectURIs[0].value), ("response_type", "code"), ("scope", scope),
            ("state", "s-1"), ("nonce", "n-1"), ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
            ("code_challenge_method", "S256"), ("resource", "https://api.example.com")]
        if !prompt.isEmpty { parameters.append(("prompt", prompt.joined(separator: " "))) }
        if let maxAge { parameters.append(("max_age", String(maxAge))) }
        if let hintedSubject { parameters.append(("id_token_hint", hintedSubject)) }
        // The hint closure reads the "hint" as the subject itself: the flow is under test, not hints.
        let endpoint = AuthorizationEndpoint(clients: server.clients) { hint, _ in hint }
        return try endpoint.validate(RequestParameters(parameters)).0
    }

    func makeUser(_ email: String = "alice@example.com") throws -> UserRecord {
        try users.create(email: email, name: "Alice", password: Self.password)
    }

    /// A signed-in browser: the session cookie value and the session, through the gate.
    func signedIn(_ user: UserRecord) throws -> (token: String, session: ActiveSession) {
        guard case .proceed(let admission) = try flow.gate.decide(SignInEvent(user: user, amr: ["pwd"], way: .password), for: .noClient) else {
            throw FixtureError("the gate did not admit \(user.id)")
        }
        return try flow.sessions.start(admission)
    }

    func codeRecord(_ code: String) throws -> AuthorizationCodeRecord {
        guard case .consumed(let record) = try storage.codes.consumeCode(codeHash: server.tokens.hash(code), now: clock.now) else {
            throw FixtureError("code not found")
        }
        return record
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension FlowStep {
    var code: String? { if case .code(let code, _, _) = self { code } else { nil } }
    var errorCode: OAuthErrorCode? { if case .error(let error, _, _) = self { error.code } else { nil } }
    var handle: String? {
        switch self {
        case .signIn(let handle), .consent(let handle): handle
        default: nil
        }
    }
    var isSignIn: Bool { if case .signIn = self { true } else { false } }
    var isConsent: Bool { if case .consent = self { true } else { false } }
}
