import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// A TestServer with the clients and the user the interactive end-to-end tests share.
///
/// Clients: `native` (public, first-party, loopback and private-use redirect URIs, post-logout
/// URI), `web` (public, third-party, claimed https redirect: consent is remembered) and `app`
/// (public, third-party, private-use scheme: consent asked every time, RFC 8252 §8.6).
struct Interactive {
    let server: TestServer
    let user: UserRecord
    static let email = "alice@example.com"
    static let password = "correct horse battery"
    static let loopback = "http://127.0.0.1/callback"
    static let callback = "http://127.0.0.1:49152/callback"   // any port matches (RFC 8252 §7.3)
    static let postLogout = "com.example.native:/logged-out"

    init(tlsHost: String? = nil, adminListener: Bool = false, configure: (inout SignetConfiguration) throws -> Void = { _ in }) throws {
        server = try TestServer(tlsHost: tlsHost, adminListener: adminListener, configure: configure)
        // SQLite stores times rounded to the microsecond, which can put a new key's activation a
        // fraction after the (frozen) manual clock; one second later every key can sign.
        server.clock.advance(by: 1)
        let now = server.clock.now
        let storage = server.environment.storage
        let scopes = ["openid", "profile", "email", "offline_access"]
        let grants = ["authorization_code", "refresh_token"]
        try storage.clients.upsertClient(ClientRecord(
            id: "native", name: "Native <b>App</b>", isPublic: true, firstParty: true,
            redirectURIs: [Self.loopback, "com.example.native:/callback"], postLogoutRedirectURIs: [Self.postLogout],
            allowedScopes: scopes, grantTypes: grants, tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        try storage.clients.upsertClient(ClientRecord(
            id: "web", name: "Web Partner", isPublic: true, redirectURIs: ["https://partner.example.com/cb"],
            allowedScopes: scopes, grantTypes: grants, tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        try storage.clients.upsertClient(ClientRecord(
            id: "app", name: "Other App", isPublic: true, redirectURIs: ["com.example.other:/cb"],
            allowedScopes: scopes, grantTypes: grants, tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        user = try server.environment.makeUserService().create(email: Self.email, name: "Alice", password: Self.password)
    }

    func stop() { server.stop() }

    /// An authorization request URL; `extra` adds or replaces parameters (nil value removes).
    func authorizeURL(client: String = "native", redirectURI: String = Interactive.callback, pkce: PKCEPair,
                      state: String = "st-123", extra: [(String, String?)] = []) -> URL {
        var pairs: [(String, String)] = [
            ("response_type", "code"), ("client_id", client), ("redirect_uri", redirectURI),
            ("scope", "openid profile email offline_access"), ("state", state), ("nonce", "nonce-1"),
            ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]
        for (name, value) in extra {
            pairs.removeAll { $0.0 == name }
            if let value { pairs.append((name, value)) }
        }
        return server.url(Routes.authorize, query: pairs)
    }

    /// Signs in on the sign-in page the browser is on; returns where that led.
    func submitCredentials(_ browser: FormBrowser, email: String = Interactive.email,
                           password: String = Interactive.password) async throws -> BrowserOutcome {
        try await browser.submit(formWithAction: Routes.signIn, fields: ["email": email, "password": password])
    }

    /// Redeems a code at /token.
    func redeem(code: String, pkce: PKCEPair, client: String = "native", redirectURI: String = Interactive.callback) async throws -> TestResponse {
        try await HTTPTestClient().post(server.url(Routes.token), form: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("client_id", client), ("code_verifier", pkce.verifier)])
    }

    /// The whole flow for a fresh browser: authorize, sign in, the code.
    func signIn(_ browser: FormBrowser, pkce: PKCEPair) async throws -> RedirectTarget {
        let page = try await browser.open(authorizeURL(pkce: pkce))
        #expect(page.status == 200)
        return try await submitCredentials(browser).requireRedirect()
    }

    /// The session cookie, if the browser holds one.
    static func sessionCookie(_ browser: FormBrowser) -> TestCookie? { browser.cookies["signet_session"] }
}

/// The headers every page and redirect of the interactive endpoints carries.
func expectHardened(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    #expect(response.header("X-Frame-Options") == "DENY", sourceLocation: sourceLocation)
    #expect(response.header("Referrer-Policy") == "no-referrer", sourceLocation: sourceLocation)
    #expect(response.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
    let csp = response.header("Content-Security-Policy") ?? ""
    #expect(csp.hasPrefix("default-src 'none'; style-src 'self'; "), sourceLocation: sourceLocation)
    #expect(csp.hasSuffix("frame-ancestors 'none'"), sourceLocation: sourceLocation)
}
