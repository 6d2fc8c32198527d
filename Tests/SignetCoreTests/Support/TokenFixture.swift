import Foundation
import SignetCrypto
import SignetJOSE
import SignetSQLite
import SignetStore
import SignetWire
@testable import SignetCore

/// Signing keys generated once for the whole test target (RSA key generation is the slow part)
/// and copied into each fixture's store.
enum SharedKeys {
    static let masterKey: MasterKey = {
        // A fixed test key: 32 bytes.
        (try? MasterKey(material: Array(repeating: 7, count: 32))) ?? { preconditionFailure("master key") }()
    }()
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let records: [SigningKeyRecord] = {
        guard let storage = try? SQLiteStorage.temporary() else { return [] }
        let ring = SigningKeyRing(store: storage.keys, encryptionKey: masterKey.keyEncryptionKey,
                                  clock: ManualClock(start.addingTimeInterval(-10)), retentionSeconds: 3600)
        _ = try? ring.ensureSigningKeys([.rs256, .es256, .edDSA])
        return (try? storage.keys.allKeys()) ?? []
    }()
}

/// One authorization server on a temporary SQLite store with a manual clock.
final class TokenFixture: @unchecked Sendable {
    let clock = ManualClock(SharedKeys.start)
    let storage: SQLiteStorage
    let server: AuthorizationServer
    let endpoint: TokenEndpoint
    let registration: ClientRegistration
    let userID = "user-1"

    init(configure: (inout ServerPolicy) -> Void = { _ in }) throws {
        storage = try SQLiteStorage.temporary()
        for record in SharedKeys.records { try storage.keys.insertKey(record) }
        var policy = ServerPolicy(issuer: "https://id.example.com")
        configure(&policy)
        let ring = SigningKeyRing(store: storage.keys, encryptionKey: SharedKeys.masterKey.keyEncryptionKey, clock: clock,
                                  retentionSeconds: 3600)
        try ring.prepare([.rs256, .es256])   // the keys exist: opens the ring at once
        server = AuthorizationServer(policy: policy, storage: storage, masterKey: SharedKeys.masterKey, keyRing: ring,
                                     clock: clock, random: SystemRandomSource())
        endpoint = TokenEndpoint(server: server)
        registration = ClientRegistration(server: server)
        try storage.users.insertUser(UserRecord(id: userID, email: "ada@example.com", emailVerified: true, name: "Ada Lovelace",
                                                givenName: "Ada", familyName: "Lovelace", createdAt: clock.now, updatedAt: clock.now))
    }

    static let nativeRedirect = "com.example.app:/callback"
    static let loopbackRedirect = "http://127.0.0.1/callback"

    /// Registers the demo public native client `app`.
    @discardableResult
    func addPublicClient(_ id: String = "app") throws -> ClientRecord {
        try registration.register(ClientSpec(id: id, isPublic: true, redirectURIs: [Self.nativeRedirect, Self.loopbackRedirect])).record
    }

    /// Registers a confidential client; returns its secret.
    func addConfidentialClient(_ id: String = "web", method: String? = nil, grants: [String]? = nil,
                               scope: String? = nil) throws -> String {
        let spec = ClientSpec(id: id, isPublic: false, redirectURIs: ["https://web.example.com/cb"], scope: scope,
                              grantTypes: grants, authenticationMethod: method)
        return try registration.register(spec).secret ?? ""
    }

    /// Stores a code exactly as /authorize does, and returns it.
    func issueCode(client: String = "app", redirectURI: String = TokenFixture.nativeRedirect,
                   scope: String = "openid profile email offline_access", verifier: String? = TokenFixture.verifier,
                   nonce: String? = "n-1") throws -> String {
        let code = server.tokens.make(.code)
        let now = clock.now
        try storage.codes.insertCode(AuthorizationCodeRecord(
            codeHash: server.tokens.hash(code),
            grantID: server.newIdentifier(),
            terms: GrantTerms(clientID: client, userID: userID, scope: scope, amr: ["pwd"], authTime: now, sessionID: "sid-1"),
            redirectURI: redirectURI,
            codeChallenge: verifier.map(TokenFixture.challenge),
            nonce: nonce,
            createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(server.policy.authorizationCodeLifetime))))
        return code
    }

    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static func challenge(_ verifier: String) -> String { Base64URL.encode(Digest.sha256(Array(verifier.utf8))) }

    /// A token request.
    func token(_ pairs: [(String, String)], authorization: String? = nil) throws(OAuthError) -> TokenResponse {
        try endpoint.handle(RequestParameters(pairs.map { (name: $0.0, value: $0.1) }), authorization: authorization)
    }

    /// Redeems a code for the public client.
    func redeem(_ code: String, client: String = "app", redirectURI: String = TokenFixture.nativeRedirect,
                verifier: String? = TokenFixture.verifier) throws(OAuthError) -> TokenResponse {
        var pairs = [("grant_type", "authorization_code"), ("code", code), ("client_id", client), ("redirect_uri", redirectURI)]
        if let verifier { pairs.append(("code_verifier", verifier)) }
        return try token(pairs)
    }

    /// Refreshes for the public client.
    func refresh(_ token: String, client: String = "app", scope: String? = nil) throws(OAuthError) -> TokenResponse {
        var pairs = [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", client)]
        if let scope { pairs.append(("scope", scope)) }
        return try self.token(pairs)
    }

    /// A Basic authorization header.
    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
    }

    /// The OAuth error code `body` throws, or nil.
    func errorCode(_ body: () throws -> Void) -> OAuthErrorCode? {
        do { try body() } catch let error as OAuthError { return error.code } catch { return .serverError }
        return nil
    }
}
