import Foundation
import SignetClientCore
import SignetCore
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// A real Signet with a public client and a user; `accessToken()` signs in with a form browser
/// and redeems the code, so tests hold real RFC 9068 tokens.
struct ResourceFixture {
    let server: TestServer
    static let redirect = "http://127.0.0.1:50130/callback"

    init() throws {
        server = try TestServer()
        server.clock.advance(by: 1)
        let now = server.clock.now
        try server.environment.storage.clients.upsertClient(ClientRecord(
            id: "native", name: "Native", isPublic: true, firstParty: true, redirectURIs: ["http://127.0.0.1/callback"],
            allowedScopes: ["openid", "profile", "email", "offline_access"], grantTypes: ["authorization_code", "refresh_token"],
            tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        _ = try server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: "a long password")
    }

    func stop() { server.stop() }

    /// A real token response (access token and ID token) for `bob`.
    func tokens() async throws -> (accessToken: String, idToken: String) {
        let json = try await tokenResponse(scope: "openid email")
        return (try #require(json["access_token"]?.stringValue), try #require(json["id_token"]?.stringValue))
    }

    /// A real refresh token of `native` for `bob` (opaque, so an API's validator introspects it).
    func refreshToken() async throws -> String {
        try #require(try await tokenResponse(scope: "openid offline_access")["refresh_token"]?.stringValue)
    }

    /// Registers the confidential client `rs` an API introspects with; returns its secret.
    func registerResourceServer() throws -> String {
        let registration = ClientRegistration(server: server.application.authorizationServer)
        let registered = try registration.register(ClientSpec(id: "rs", isPublic: false, grantTypes: ["client_credentials"]))
        return try #require(registered.secret)
    }

    /// Signs `bob` in with a form browser and redeems the code with PKCE.
    private func tokenResponse(scope: String) async throws -> JSONValue {
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(server.url(Routes.authorize, query: [
            ("response_type", "code"), ("client_id", "native"), ("redirect_uri", Self.redirect), ("scope", scope),
            ("state", "s"), ("nonce", "n"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]))
        let redirect = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "bob@example.com", "password": "a long password"])
        let code = try redirect.requireRedirect().query().single("code")
        let response = try await HTTPTestClient().post(server.url(Routes.token), form: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirect),
            ("client_id", "native"), ("code_verifier", pkce.verifier)])
        return try response.json()
    }
}
