import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore
@testable import SignetTesting

/// A running server with a demo user, a public native client `app` and a confidential
/// resource-server client `rs`, plus helpers that make codes exactly as `/authorize` does.
final class APIFixture: Sendable {
    let server: TestServer
    let client = HTTPTestClient()
    let userID = "user-1"
    let rsSecret: String
    static let redirect = "com.example.app:/callback"

    init() throws {
        // Whole seconds: SQLite stores microseconds, and a key activated at a sub-microsecond
        // instant rounded up would never sign under a clock that does not move.
        server = try TestServer(clock: ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))))
        let core = server.application.authorizationServer
        let now = server.clock.now
        try core.storage.users.insertUser(UserRecord(id: userID, email: "ada@example.com", emailVerified: true,
                                                     name: "Ada Lovelace", createdAt: now, updatedAt: now))
        let registration = ClientRegistration(server: core)
        _ = try registration.register(ClientSpec(id: "app", isPublic: true, redirectURIs: [Self.redirect, "http://127.0.0.1/callback"]))
        rsSecret = try registration.register(ClientSpec(id: "rs", isPublic: false, scope: "api.read",
                                                        grantTypes: ["client_credentials"])).secret ?? ""
    }

    var core: AuthorizationServer { server.application.authorizationServer }

    /// Stores a code as `/authorize` does: an `sgc_` token, only its hash stored, a new grant id.
    func issueCode(client: String = "app", redirectURI: String = APIFixture.redirect,
                   scope: String = "openid profile email offline_access", pkce: PKCEPair? = APIFixture.pkce) throws -> String {
        let code = core.tokens.make(.code)
        let now = server.clock.now
        try core.storage.codes.insertCode(AuthorizationCodeRecord(
            codeHash: core.tokens.hash(code),
            grantID: core.newIdentifier(),
            terms: GrantTerms(clientID: client, userID: userID, scope: scope, amr: ["pwd"], authTime: now),
            redirectURI: redirectURI,
            codeChallenge: pkce?.challenge,
            nonce: "n-1",
            createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(core.policy.authorizationCodeLifetime))))
        return code
    }

    static let pkce = PKCEPair(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")

    func post(_ path: String, _ form: [(String, String)], headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send("POST", path, body: Array(FormEncoding.encode(form).utf8),
                       headers: [("Content-Type", "application/x-www-form-urlencoded")] + Array(headers.map { ($0.name, $0.value) }))
    }

    func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send("GET", path, body: [], headers: headers.map { ($0.name, $0.value) })
    }

    /// One request to the fixture's server.
    func send(_ method: String, _ path: String, body: [UInt8], headers: [(String, String)]) async throws -> TestResponse {
        try await client.send(method: method, url: server.url(path), body: body.isEmpty ? nil : body, headers: HTTPHeaders(headers))
    }

    /// Redeems a code for `app` over HTTP.
    func redeem(_ code: String, verifier: String = APIFixture.pkce.verifier) async throws -> TestResponse {
        try await post("/token", [("grant_type", "authorization_code"), ("code", code), ("client_id", "app"),
                                  ("redirect_uri", Self.redirect), ("code_verifier", verifier)])
    }

    /// A fresh token response (as JSON) for `app`.
    func tokens(scope: String = "openid profile email offline_access") async throws -> JSONValue {
        let response = try await redeem(try issueCode(scope: scope))
        guard response.status == 200 else { throw TestingError("token request failed: \(response)") }
        return try response.json()
    }

    static func basic(_ id: String, _ secret: String) -> HTTPHeaders {
        ["Authorization": "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()]
    }

    var rsAuthorization: HTTPHeaders { Self.basic("rs", rsSecret) }

    func stop() { server.stop() }
}
