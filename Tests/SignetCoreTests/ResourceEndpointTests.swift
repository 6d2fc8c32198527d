import Foundation
import Testing
import SignetJOSE
import SignetStore
import SignetWire
@testable import SignetCore

@Suite struct UserInfoEndpointTests {
    @Test func claimsByScope() throws {
        let fixture = try CoreFixture()
        try fixture.addPublicClient()
        let full = try fixture.redeem(try fixture.issueCode())
        let endpoint = UserInfoEndpoint(server: fixture.server)
        let claims = try endpoint.claims(accessToken: full.accessToken)
        #expect(claims["sub"]?.stringValue == fixture.userID)
        #expect(claims["email"]?.stringValue == "ada@example.com")
        #expect(claims["name"]?.stringValue == "Ada Lovelace")
        let narrow = try fixture.redeem(try fixture.issueCode(scope: "openid"))
        let minimal = try endpoint.claims(accessToken: narrow.accessToken)
        #expect(minimal.objectValue?.keys.sorted() == ["sub"])
    }

    @Test func refusals() throws {
        let fixture = try CoreFixture()
        try fixture.addPublicClient()
        let endpoint = UserInfoEndpoint(server: fixture.server)
        func code(_ token: String) -> OAuthErrorCode? {
            do { _ = try endpoint.claims(accessToken: token) } catch { return error.code }
            return nil
        }
        #expect(code("garbage") == .invalidToken)
        let noOpenID = try fixture.redeem(try fixture.issueCode(scope: "profile"))
        #expect(code(noOpenID.accessToken) == .insufficientScope)
        let secret = try fixture.addConfidentialClient("svc", grants: ["client_credentials"], scope: "api")
        let service = try fixture.token([("grant_type", "client_credentials")], authorization: CoreFixture.basic("svc", secret))
        #expect(code(service.accessToken) == .invalidToken)
        let response = try fixture.redeem(try fixture.issueCode())
        fixture.clock.advance(by: 900 + 31)
        #expect(code(response.accessToken) == .invalidToken)
    }

    @Test func revokedGrantAndDisabledUser() throws {
        let fixture = try CoreFixture()
        try fixture.addPublicClient()
        let endpoint = UserInfoEndpoint(server: fixture.server)
        let first = try fixture.redeem(try fixture.issueCode())
        let gid = try #require(try fixture.server.verifier(types: nil, audience: nil).verify(first.accessToken).claims["gid"]?.stringValue)
        try fixture.storage.refreshTokens.revokeGrant(id: gid, reason: "test", now: fixture.clock.now)
        #expect(throws: OAuthError.self) { try endpoint.claims(accessToken: first.accessToken) }
        let second = try fixture.redeem(try fixture.issueCode())
        _ = try endpoint.claims(accessToken: second.accessToken)
        try fixture.storage.users.setDisabled(userID: fixture.userID, disabledAt: fixture.clock.now, now: fixture.clock.now)
        #expect(throws: OAuthError.self) { try endpoint.claims(accessToken: second.accessToken) }
    }
}

@Suite struct RevocationAndIntrospectionTests {
    func parameters(_ pairs: [(String, String)]) -> RequestParameters {
        RequestParameters(pairs.map { (name: $0.0, value: $0.1) })
    }

    @Test func revokingARefreshTokenRevokesTheFamily() throws {
        let fixture = try CoreFixture()
        try fixture.addPublicClient()
        let response = try fixture.redeem(try fixture.issueCode())
        let refresh = try #require(response.refreshToken)
        let endpoint = RevocationEndpoint(server: fixture.server)
        try endpoint.handle(parameters([("token", refresh), ("client_id", "app"), ("token_type_hint", "refresh_token")]), authorization: nil)
        #expect(fixture.errorCode { _ = try fixture.refresh(refresh) } == .invalidGrant)
        #expect(throws: OAuthError.self) { try UserInfoEndpoint(server: fixture.server).claims(accessToken: response.accessToken) }
        #expect(try fixture.storage.audit.recentAudit(limit: 5).contains { $0.event == "token_revoked" })
    }

    @Test func revokingAnAccessTokenRevokesTheFamily() throws {
        let fixture = try CoreFixture()
        try fixture.addPublicClient()
        let response = try fixture.redeem(try fixture.issueCode())
        try RevocationEndpoint(server: fixture.server).handle(
            parameters([("token", response.accessToken), ("client_id", "app"), ("token_type_hint", "unknown_hint")]), authorization: nil)
        #expect(fixture.errorCode { _ = try fixture.refresh(try #require(response.refreshToken)) } == .invalidGrant)
    }

    @Test func anotherClientsOrUnknownTokensChangeNothing() throws {
        let fixture = try CoreFixture()
        try fixture.addPublicClient()
        try fixture.addPublicClient("other")
        let response = try fixture.redeem(try fixture.issueCode())
        let endpoint = RevocationEndpoint(server: fixture.server)
        for token in [try #require(response.refreshToken), response.accessToken, "garbage", fixture.server.tokens.make(.refresh)] {
            try endpoint.handle(parameters([("token", token), ("client_id", "other")]), authorization: nil)
        }
        #expect(try fixture.refresh(try #require(response.refreshToken)).refreshToken != nil)
        #expect(fixture.errorCode { try endpoint.handle(parameters([("client_id", "app")]), authorization: nil) } == .invalidRequest)
        #expect(fixture.errorCode { try endpoint.handle(parameters([("token", "x"), ("client_id", "ghost")]), authorization: nil) } == .invalidClient)
    }

    @Test func introspection() throws {
        let fixture = try CoreFixture()
        try fixture.addPublicClient()
        let secret = try fixture.addConfidentialClient("rs", grants: ["client_credentials"], scope: "api")
        let auth = CoreFixture.basic("rs", secret)
        let response = try fixture.redeem(try fixture.issueCode())
        let endpoint = IntrospectionEndpoint(server: fixture.server)
        let active = try endpoint.handle(parameters([("token", response.accessToken)]), authorization: auth)
        #expect(active["active"] == .bool(true))
        #expect(active["client_id"]?.stringValue == "app")
        #expect(active["sub"]?.stringValue == fixture.userID)
        #expect(active["token_type"]?.stringValue == "Bearer")
        for name in ["scope", "exp", "iat", "iss", "aud", "jti"] { #expect(active[name] != nil, "\(name)") }
        // Another client's refresh token: inactive for this caller.
        let refresh = try #require(response.refreshToken)
        #expect(try endpoint.handle(parameters([("token", refresh)]), authorization: auth) == IntrospectionEndpoint.inactive)
        #expect(try endpoint.handle(parameters([("token", "garbage")]), authorization: auth) == IntrospectionEndpoint.inactive)
        // Public clients cannot introspect.
        #expect(fixture.errorCode { _ = try endpoint.handle(parameters([("token", refresh), ("client_id", "app")]), authorization: nil) } == .invalidClient)
        // Revoked: inactive.
        try RevocationEndpoint(server: fixture.server).handle(parameters([("token", refresh), ("client_id", "app")]), authorization: nil)
        #expect(try endpoint.handle(parameters([("token", response.accessToken)]), authorization: auth) == IntrospectionEndpoint.inactive)
    }

    @Test func introspectingOwnRefreshToken() throws {
        let fixture = try CoreFixture()
        let secret = try fixture.addConfidentialClient("web")
        let code = try fixture.issueCode(client: "web", redirectURI: "https://web.example.com/cb", verifier: nil)
        let auth = CoreFixture.basic("web", secret)
        let response = try fixture.token([("grant_type", "authorization_code"), ("code", code),
                                          ("redirect_uri", "https://web.example.com/cb")], authorization: auth)
        let refresh = try #require(response.refreshToken)
        let endpoint = IntrospectionEndpoint(server: fixture.server)
        let result = try endpoint.handle(parameters([("token", refresh), ("token_type_hint", "refresh_token")]), authorization: auth)
        #expect(result["active"] == .bool(true))
        #expect(result["token_type"]?.stringValue == "refresh_token")
        #expect(result["client_id"]?.stringValue == "web")
        #expect(result["sub"]?.stringValue == fixture.userID)
        #expect(result["scope"]?.stringValue == "openid profile email offline_access")
        // Rotated: no longer active.
        _ = try fixture.token([("grant_type", "refresh_token"), ("refresh_token", refresh)], authorization: auth)
        #expect(try endpoint.handle(parameters([("token", refresh)]), authorization: auth) == IntrospectionEndpoint.inactive)
    }
}
