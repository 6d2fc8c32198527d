import Foundation
@testable import SignetCore
import SignetFederation
import SignetHTTP
import SignetMockProvider
import SignetServer
import SignetStore
import SignetTesting
import SignetWire
import Testing

/// Deleting an account: `DELETE /account` with an `account:delete` access token (RFC 6750
/// errors), and Apple's token revocation seen by the mock provider.
@Suite(.endToEndLimit) struct AccountDeletionTests {
    static let appRedirect = "com.example.first:/callback"

    /// Interactive plus a first-party client `first` that may ask for `account:delete`.
    func environment() throws -> Interactive {
        let env = try Interactive()
        let now = env.server.clock.now
        try env.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "first", name: "First App", isPublic: true, firstParty: true, redirectURIs: [Self.appRedirect],
            allowedScopes: ["openid", "offline_access", Scope.accountDelete], grantTypes: ["authorization_code", "refresh_token"],
            tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        return env
    }

    /// Tokens for `first` with `scope`.
    func tokens(_ env: Interactive, scope: String) async throws -> (access: String, refresh: String) {
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "first", redirectURI: Self.appRedirect, pkce: pkce, extra: [("scope", scope)]))
        let code = try #require(try await env.submitCredentials(browser).requireRedirect()["code"])
        let body = try await env.redeem(code: code, pkce: pkce, client: "first", redirectURI: Self.appRedirect).json()
        let access = try #require(body["access_token"]?.stringValue)
        let refresh = try #require(body["refresh_token"]?.stringValue)
        return (access, refresh)
    }

    func delete(_ env: Interactive, token: String?) async throws -> TestResponse {
        let headers: HTTPHeaders = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return try await HTTPTestClient().send(method: "DELETE", url: env.server.url(Routes.account), body: nil, headers: headers)
    }

    func expectChallenge(_ response: TestResponse, status: Int, error: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(try response.json()["error"]?.stringValue == error, sourceLocation: sourceLocation)
        #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer realm=\"signet\", error=\"\(error)\"") == true,
                sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    }

    @Test func aFirstPartyTokenWithTheScopeDeletesTheAccount() async throws {
        let env = try environment()
        defer { env.stop() }
        let (access, refresh) = try await tokens(env, scope: "openid offline_access account:delete")
        let deleted = try await delete(env, token: access)
        #expect(deleted.status == 204)
        #expect(deleted.header("Cache-Control") == "no-store")
        #expect(try env.server.environment.storage.users.user(id: env.user.id) == nil)
        let refreshed = try await HTTPTestClient().post(env.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "first")])
        #expect(refreshed.status == 400)
        #expect(try refreshed.json()["error"]?.stringValue == "invalid_grant")
        // The same token again: its grant and user are gone.
        try expectChallenge(try await delete(env, token: access), status: 401, error: "invalid_token")
        let audit = try env.server.environment.storage.audit.recentAudit(limit: 50)
        let event = try #require(audit.first { $0.event == "account_deleted" })
        #expect(event.detail.contains("\"api\""))
        #expect(!event.detail.contains(Interactive.email))
    }

    @Test func badTokensAreRefusedPerRFC6750AndNothingIsDeleted() async throws {
        let env = try environment()
        defer { env.stop() }
        let none = try await delete(env, token: nil)
        #expect(none.status == 401)
        #expect(none.header("WWW-Authenticate") == "Bearer realm=\"signet\"")
        try expectChallenge(try await delete(env, token: "not-a-token"), status: 401, error: "invalid_token")
        // Without the scope.
        let plain = try await tokens(env, scope: "openid offline_access")
        try expectChallenge(try await delete(env, token: plain.access), status: 403, error: "insufficient_scope")
        // Expired.
        let scoped = try await tokens(env, scope: "openid offline_access account:delete")
        env.server.clock.advance(by: TimeInterval(env.server.environment.configuration.lifetimes.accessToken + 60))
        try expectChallenge(try await delete(env, token: scoped.access), status: 401, error: "invalid_token")
        // In the form body instead of the header: not for DELETE (RFC 6750 §2.2 is POST only).
        let inQuery = try await HTTPTestClient().send(method: "DELETE", url: env.server.url(Routes.account, query: [("access_token", scoped.access)]),
                                                      body: nil, headers: [:])
        #expect(inQuery.status == 400)
        #expect(try env.server.environment.storage.users.user(id: env.user.id) != nil)
    }

    @Test func anotherClientsTokenIsRefusedAndAThirdPartyCannotAskForTheScope() async throws {
        let env = try environment()
        defer { env.stop() }
        // A third-party client whose registration lists the scope still cannot get it.
        let now = env.server.clock.now
        try env.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "partner", name: "Partner", isPublic: true, redirectURIs: ["com.example.partner:/cb"],
            allowedScopes: ["openid", Scope.accountDelete], grantTypes: ["authorization_code"],
            tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        let browser = FormBrowser()
        let refused = try await browser.open(env.authorizeURL(client: "partner", redirectURI: "com.example.partner:/cb", pkce: .generate(),
                                                              extra: [("scope", "openid account:delete")]))
        let redirect = try refused.requireRedirect()
        #expect(redirect["error"] == "invalid_scope")
        // A token of that client with the scope (as if minted before the rule), on an active grant.
        let server = env.server.application.authorizationServer
        try server.storage.refreshTokens.createGrant(GrantRecord(
            grantID: "g-partner",
            terms: GrantTerms(clientID: "partner", userID: env.user.id, scope: "openid account:delete", authTime: now),
            createdAt: now,
            absoluteExpiresAt: now.addingTimeInterval(3600)))
        let minted = try server.issuer.accessToken(TokenIssuer.AccessTokenContent(
            subject: env.user.id, clientID: "partner", scope: Scope(["openid", Scope.accountDelete]), audience: [env.server.issuer],
            grantID: "g-partner", authTime: now, lifetime: 300))
        try expectChallenge(try await delete(env, token: minted.token), status: 403, error: "insufficient_scope")
        #expect(try env.server.environment.storage.users.user(id: env.user.id) != nil)
    }

    @Test func deletingAnAppleAccountRevokesItsTokenAtApple() async throws {
        let fed = try Federated(.apple, user: MockUser(email: "ada@privaterelay.appleid.com", name: "Ada Apple"))
        defer { fed.stop() }
        let browser = fed.browser()
        let outcome = try await fed.signIn(browser, pkce: .generate())
        _ = try outcome.requireRedirect()
        let issued = try #require(fed.mock.liveRefreshTokens.first)
        // Kept only sealed: the database does not hold the token's text.
        let user = try #require(try fed.server.environment.storage.users.allUsers().first { $0.email.hasPrefix("ada@") })
        let kept = try fed.server.environment.storage.users.upstreamTokens(userID: user.id)
        #expect(kept.count == 1)
        #expect(!String(decoding: try #require(kept.first).sealed, as: UTF8.self).contains(issued))
        let page = try await browser.open(fed.server.url(Routes.account))
        #expect(page.url.path == Routes.account)
        let deleted = try await browser.submit(formWithAction: Routes.accountDelete)
        #expect(deleted.status == 200)
        #expect(try fed.server.environment.storage.users.user(id: user.id) == nil)
        let calls = fed.mock.revocations
        #expect(calls.count == 1)
        let call = try #require(calls.first)
        #expect(call.clientID == fed.mock.clientID)
        #expect(call.clientSecretValid)
        #expect(call.token == issued)
        #expect(call.tokenTypeHint == "refresh_token")
        #expect(call.tokenKnown)
        #expect(fed.mock.liveRefreshTokens.isEmpty)
        let events = try fed.server.environment.storage.audit.recentAudit(limit: 50).map(\.event)
        #expect(events.contains("upstream_token_revoked"))
    }

    @Test func aFailingAppleRevocationStillDeletesAndIsRecorded() async throws {
        let fed = try Federated(.apple, user: MockUser(email: "ada@privaterelay.appleid.com", name: "Ada Apple"))
        defer { fed.stop() }
        let browser = fed.browser()
        _ = try await fed.signIn(browser, pkce: .generate()).requireRedirect()
        fed.mock.behaviour.revocationStatus = 503
        _ = try await browser.open(fed.server.url(Routes.account))
        let deleted = try await browser.submit(formWithAction: Routes.accountDelete)
        #expect(deleted.status == 200)
        #expect(try fed.server.environment.storage.users.allUsers().filter { $0.email.hasPrefix("ada@") }.isEmpty)
        #expect(fed.mock.revocations.count == 1)
        let failed = try #require(try fed.server.environment.storage.audit.recentAudit(limit: 50).first { $0.event == "upstream_revoke_failed" })
        #expect(failed.detail.contains("\"apple\""))
        #expect(!failed.detail.contains("mockrt_"))
    }
}
