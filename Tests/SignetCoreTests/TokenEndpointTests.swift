import Foundation
import Testing
import SignetJOSE
import SignetStore
@testable import SignetSQLite
import SignetWire
@testable import SignetCore

@Suite struct AuthorizationCodeGrantTests {
    @Test func happyPath() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let response = try fixture.redeem(try fixture.issueCode())
        #expect(response.tokenType == "Bearer")
        #expect(response.scope == "openid profile email offline_access")
        let refresh = try #require(response.refreshToken)
        #expect(fixture.server.tokens.hasShape(refresh, of: .refresh))
        let idToken = try #require(response.idToken)
        let verifier = try fixture.server.verifier(types: ["JWT"], audience: "app")
        let claims = try verifier.verify(idToken).claims
        #expect(claims.sub == fixture.userID)
        #expect(claims.nonce == "n-1")
        #expect(claims["azp"]?.stringValue == "app")
        #expect(claims["sid"]?.stringValue == "sid-1")
        #expect(claims["email"]?.stringValue == "ada@example.com")
        #expect(claims["at_hash"]?.stringValue == TokenIssuer.leftHalfHash(response.accessToken, algorithm: .rs256))
        let access = try fixture.server.verifier(types: ["at+jwt"], audience: "https://id.example.com").verify(response.accessToken)
        #expect(access.claims["client_id"]?.stringValue == "app")
        #expect(access.claims["gid"]?.stringValue != nil)
    }

    @Test func withoutOfflineAccessNoRefreshToken() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let response = try fixture.redeem(try fixture.issueCode(scope: "openid"))
        #expect(response.refreshToken == nil)
        #expect(response.idToken != nil)
    }

    @Test func pkceMismatch() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        #expect(fixture.errorCode { _ = try fixture.redeem(code, verifier: String(repeating: "a", count: 43)) } == .invalidGrant)
    }

    @Test func missingVerifier() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        #expect(fixture.errorCode { _ = try fixture.redeem(code, verifier: nil) } == .invalidGrant)
    }

    @Test func verifierWithoutChallenge() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode(verifier: nil)
        #expect(fixture.errorCode { _ = try fixture.redeem(code) } == .invalidGrant)
    }

    @Test func codeFromAnotherClient() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient("app")
        try fixture.addPublicClient("other")
        let code = try fixture.issueCode(client: "app")
        #expect(fixture.errorCode { _ = try fixture.redeem(code, client: "other") } == .invalidGrant)
    }

    @Test(arguments: ["com.example.app:/callback/", "com.example.app:/other", "http://127.0.0.1/callback"])
    func redirectURIMismatch(sent: String) throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        #expect(fixture.errorCode { _ = try fixture.redeem(code, redirectURI: sent) } == .invalidGrant)
    }

    @Test func missingRedirectURI() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        let error = fixture.errorCode {
            _ = try fixture.token([("grant_type", "authorization_code"), ("code", code), ("client_id", "app"),
                                   ("code_verifier", TokenFixture.verifier)])
        }
        #expect(error == .invalidGrant)
    }

    @Test func expiredCode() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        fixture.clock.advance(by: 301)
        #expect(fixture.errorCode { _ = try fixture.redeem(code) } == .invalidGrant)
    }

    @Test func malformedAndUnknownCodes() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        #expect(fixture.errorCode { _ = try fixture.redeem("not-a-code") } == .invalidGrant)
        #expect(fixture.errorCode { _ = try fixture.redeem(fixture.server.tokens.make(.code)) } == .invalidGrant)
        #expect(fixture.errorCode { _ = try fixture.token([("grant_type", "authorization_code"), ("client_id", "app")]) } == .invalidRequest)
    }

    @Test func reusedCodeRevokesTheFamily() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        let first = try fixture.redeem(code)
        #expect(fixture.errorCode { _ = try fixture.redeem(code) } == .invalidGrant)
        let refresh = try #require(first.refreshToken)
        #expect(fixture.errorCode { _ = try fixture.refresh(refresh) } == .invalidGrant)
        let events = try fixture.storage.audit.recentAudit(limit: 10)
        #expect(events.contains { $0.event == "code_replay" })
    }

    @Test func disabledUser() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        try fixture.storage.users.setDisabled(userID: fixture.userID, disabledAt: fixture.clock.now, now: fixture.clock.now)
        #expect(fixture.errorCode { _ = try fixture.redeem(code) } == .invalidGrant)
    }
}

@Suite struct RefreshTokenGrantTests {
    func start(_ fixture: TokenFixture) throws -> String {
        try fixture.addPublicClient()
        return try #require(try fixture.redeem(try fixture.issueCode()).refreshToken)
    }

    @Test func rotation() throws {
        let fixture = try TokenFixture()
        let first = try start(fixture)
        let second = try #require(try fixture.refresh(first).refreshToken)
        #expect(second != first)
        let third = try #require(try fixture.refresh(second).refreshToken)
        #expect(third != second)
    }

    @Test func graceRetryReturnsTheSameSuccessor() throws {
        let fixture = try TokenFixture()
        let first = try start(fixture)
        let successor = try fixture.refresh(first).refreshToken
        fixture.clock.advance(by: 10)
        let retry = try fixture.refresh(first).refreshToken
        #expect(retry == successor)
        // The family goes on from the successor.
        #expect(try fixture.refresh(try #require(successor)).refreshToken != nil)
    }

    @Test func reuseAfterTheGraceWindowRevokesTheFamily() throws {
        let fixture = try TokenFixture()
        let first = try start(fixture)
        let successor = try #require(try fixture.refresh(first).refreshToken)
        fixture.clock.advance(by: 31)
        #expect(fixture.errorCode { _ = try fixture.refresh(first) } == .invalidGrant)
        #expect(fixture.errorCode { _ = try fixture.refresh(successor) } == .invalidGrant)
        let events = try fixture.storage.audit.recentAudit(limit: 10)
        #expect(events.contains { $0.event == "refresh_token_reuse" && $0.clientID == "app" && $0.subjectID == fixture.userID })
    }

    @Test func scopeMayNarrowButNotWiden() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let refresh = try #require(try fixture.redeem(try fixture.issueCode(scope: "openid offline_access")).refreshToken)
        #expect(fixture.errorCode { _ = try fixture.refresh(refresh, scope: "openid offline_access email") } == .invalidScope)
        // Refused before rotating: past the grace window the same token still works (a rotated
        // token would now be reuse, and revoke the family).
        fixture.clock.advance(by: TimeInterval(fixture.server.policy.refreshGrace + 1))
        let narrowed = try fixture.refresh(refresh, scope: "openid")
        #expect(narrowed.scope == "openid")
    }

    @Test func familyAbsoluteLifetime() throws {
        let fixture = try TokenFixture { $0.refreshFamilyLifetime = 1000; $0.refreshTokenLifetime = 800 }
        var token = try start(fixture)
        fixture.clock.advance(by: 700)
        token = try #require(try fixture.refresh(token).refreshToken)
        fixture.clock.advance(by: 400)
        #expect(fixture.errorCode { _ = try fixture.refresh(token) } == .invalidGrant)
    }

    @Test func idleExpiry() throws {
        let fixture = try TokenFixture { $0.refreshTokenLifetime = 100 }
        let token = try start(fixture)
        fixture.clock.advance(by: 101)
        #expect(fixture.errorCode { _ = try fixture.refresh(token) } == .invalidGrant)
    }

    @Test func disabledUserRevokes() throws {
        let fixture = try TokenFixture()
        let token = try start(fixture)
        try fixture.storage.users.setDisabled(userID: fixture.userID, disabledAt: fixture.clock.now, now: fixture.clock.now)
        #expect(fixture.errorCode { _ = try fixture.refresh(token) } == .invalidGrant)
    }

    /// The sign-in's `amr` is stored with the family (a typed field, no payload JSON on refresh)
    /// and carried into the ID token of every refresh.
    @Test func aRefreshedIDTokenKeepsTheSignInsAMR() throws {
        let fixture = try TokenFixture()
        let token = try start(fixture)
        let presented = try #require(try fixture.storage.refreshTokens.refreshToken(hash: fixture.server.tokens.hash(token),
                                                                                         grantID: fixture.server.tokens.refreshLocator(token)?.grantID))
        #expect(try fixture.storage.refreshTokens.grant(id: presented.grantID)?.amr == ["pwd"])
        let refreshed = try fixture.refresh(token)
        let claims = try fixture.server.verifier(types: ["JWT"], audience: "app").verify(try #require(refreshed.idToken)).claims
        #expect(claims["amr"] == .array([.string("pwd")]))
    }

    /// The store sees the disabled user inside the rotation, so a refresh that asks for no ID
    /// token (no user read in the grant) is refused too, and the family is revoked at once.
    @Test func disabledUserIsRefusedInsideTheRotationWithoutAnIDToken() throws {
        let fixture = try TokenFixture()
        let token = try start(fixture)
        try fixture.storage.users.setDisabled(userID: fixture.userID, disabledAt: fixture.clock.now, now: fixture.clock.now)
        #expect(fixture.errorCode { _ = try fixture.refresh(token, scope: "offline_access") } == .invalidGrant)
        let presented = try #require(try fixture.storage.refreshTokens.refreshToken(hash: fixture.server.tokens.hash(token),
                                                                                         grantID: fixture.server.tokens.refreshLocator(token)?.grantID))
        #expect(presented.rotatedAt == nil)
        let grant = try #require(try fixture.storage.refreshTokens.grant(id: presented.grantID))
        #expect(grant.revokeReason == RevokeReason.userDisabled)
        // Re-enabling the user does not revive the family.
        try fixture.storage.users.setDisabled(userID: fixture.userID, disabledAt: nil, now: fixture.clock.now)
        #expect(fixture.errorCode { _ = try fixture.refresh(token, scope: "offline_access") } == .invalidGrant)
    }

    @Test func anotherClientsTokenIsRefused() throws {
        let fixture = try TokenFixture()
        let token = try start(fixture)
        try fixture.addPublicClient("other")
        #expect(fixture.errorCode { _ = try fixture.refresh(token, client: "other") } == .invalidGrant)
        // Nothing changed: the owner can still use it.
        #expect(try fixture.refresh(token).refreshToken != nil)
    }

    /// A refresh token issued before migration 19 (47 characters, naming no family; its row marked
    /// `legacy` as the migration marks every row it copies) still rotates, found by its hash alone;
    /// its successor names the family, a retry in the grace window gets the same one, and it rotates.
    @Test func aTokenFromBeforeMigrationNineteenRotatesToOneThatNamesItsFamily() throws {
        let fixture = try TokenFixture()
        let token = try start(fixture)
        let tokens = fixture.server.tokens
        let family = try #require(tokens.refreshLocator(token)?.grantID)
        #expect(token.count == 4 + 43 + 22 && family.count == 22)
        let old = String(token.prefix(4 + 43))
        #expect(tokens.refreshLocator(old) == RefreshLocator(grantID: nil))
        let connection = try SQLiteConnection.open(path: fixture.storage.path)
        _ = try connection.run("UPDATE refresh_tokens SET token_hash = $1, legacy = 1 WHERE token_hash = $2",
                               [tokens.hash(old), tokens.hash(token)])
        let successor = try #require(try fixture.refresh(old).refreshToken)
        #expect(successor.count == 4 + 43 + 22 && successor.hasSuffix(family))
        #expect(try fixture.refresh(old).refreshToken == successor)
        #expect(try fixture.refresh(successor).refreshToken?.hasSuffix(family) == true)
    }

    /// A grace-window retry of a token rotated just before migration 19 gets the successor it got
    /// then (47 characters, naming no family), and that successor rotates to one that names it.
    @Test func aRetryOfATokenRotatedBeforeMigrationNineteenGetsItsEarlierSuccessor() throws {
        let fixture = try TokenFixture()
        let token = try start(fixture)
        let tokens = fixture.server.tokens
        let family = try #require(tokens.refreshLocator(token)?.grantID)
        let old = String(token.prefix(4 + 43))
        let earlier = fixture.server.grantParts.refreshMinter.successorNamingNoFamily(of: old)
        let connection = try SQLiteConnection.open(path: fixture.storage.path)
        _ = try connection.run("UPDATE refresh_tokens SET token_hash = $1, legacy = 1, rotated_at = $2, successor_hash = $3 WHERE token_hash = $4",
                               [tokens.hash(old), fixture.clock.now, tokens.hash(earlier), tokens.hash(token)])
        _ = try connection.run("""
            INSERT INTO refresh_tokens (grant_ref, created_at, expires_at, legacy, token_hash, parent_hash)
            SELECT grant_ref, created_at, expires_at, 1, $2, $1 FROM refresh_tokens WHERE token_hash = $1
            """, [tokens.hash(old), tokens.hash(earlier)])
        fixture.clock.advance(by: 5)
        #expect(try fixture.refresh(old).refreshToken == earlier)
        let next = try #require(try fixture.refresh(earlier).refreshToken)
        #expect(next.count == 4 + 43 + 22 && next.hasSuffix(family))
    }

    @Test func unknownAndMalformedTokens() throws {
        let fixture = try TokenFixture()
        _ = try start(fixture)
        #expect(fixture.errorCode { _ = try fixture.refresh("sgr_short") } == .invalidGrant)
        #expect(fixture.errorCode { _ = try fixture.refresh(fixture.server.tokens.make(.refresh)) } == .invalidGrant)
    }
}

@Suite struct TokenEndpointRequestTests {
    @Test func clientCredentialsHappyPath() throws {
        let fixture = try TokenFixture()
        let secret = try fixture.addConfidentialClient("svc", grants: ["client_credentials"], scope: "orders.read orders.write")
        let response = try fixture.token([("grant_type", "client_credentials"), ("scope", "orders.read")],
                                         authorization: TokenFixture.basic("svc", secret))
        #expect(response.refreshToken == nil && response.idToken == nil)
        #expect(response.scope == "orders.read")
        let jwt = try fixture.server.verifier(types: ["at+jwt"], audience: "https://id.example.com").verify(response.accessToken)
        #expect(jwt.claims.sub == "svc")
        #expect(jwt.claims["gid"] == nil)
        let widened = fixture.errorCode {
            _ = try fixture.token([("grant_type", "client_credentials"), ("scope", "admin")], authorization: TokenFixture.basic("svc", secret))
        }
        #expect(widened == .invalidScope)
    }

    @Test func clientCredentialsRefusedForPublicClients() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        #expect(fixture.errorCode { _ = try fixture.token([("grant_type", "client_credentials"), ("client_id", "app")]) } == .unauthorizedClient)
    }

    @Test func unsupportedGrantType() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        #expect(fixture.errorCode { _ = try fixture.token([("grant_type", "password"), ("client_id", "app")]) } == .unsupportedGrantType)
        #expect(fixture.errorCode { _ = try fixture.token([("client_id", "app")]) } == .invalidRequest)
    }

    @Test(arguments: ["grant_type", "code", "client_id", "code_verifier", "redirect_uri"])
    func repeatedParameters(name: String) throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient()
        let code = try fixture.issueCode()
        var pairs = [("grant_type", "authorization_code"), ("code", code), ("client_id", "app"),
                     ("redirect_uri", TokenFixture.nativeRedirect), ("code_verifier", TokenFixture.verifier)]
        pairs.append(pairs.first { $0.0 == name } ?? ("", ""))
        #expect(fixture.errorCode { _ = try fixture.token(pairs) } == .invalidRequest)
        // The code was not spent by the refused request.
        #expect(try fixture.redeem(code).accessToken.isEmpty == false)
    }

    @Test func invalidClientVariants() throws {
        let fixture = try TokenFixture()
        let secret = try fixture.addConfidentialClient("web")
        let postSecret = try fixture.addConfidentialClient("poster", method: "client_secret_post")
        let refresh = [("grant_type", "refresh_token"), ("refresh_token", fixture.server.tokens.make(.refresh))]
        // Wrong secret.
        #expect(fixture.errorCode { _ = try fixture.token(refresh, authorization: TokenFixture.basic("web", secret + "x")) } == .invalidClient)
        // Unknown client.
        #expect(fixture.errorCode { _ = try fixture.token(refresh, authorization: TokenFixture.basic("ghost", secret)) } == .invalidClient)
        #expect(fixture.errorCode { _ = try fixture.token(refresh + [("client_id", "ghost")]) } == .invalidClient)
        // Confidential client without a secret.
        #expect(fixture.errorCode { _ = try fixture.token(refresh + [("client_id", "web")]) } == .invalidClient)
        // No client at all.
        #expect(fixture.errorCode { _ = try fixture.token(refresh) } == .invalidClient)
        // The registered method only: a basic client may not post its secret, and vice versa.
        #expect(fixture.errorCode { _ = try fixture.token(refresh + [("client_id", "web"), ("client_secret", secret)]) } == .invalidClient)
        #expect(fixture.errorCode { _ = try fixture.token(refresh, authorization: TokenFixture.basic("poster", postSecret)) } == .invalidClient)
        // Both Basic and a body secret.
        let both = fixture.errorCode {
            _ = try fixture.token(refresh + [("client_secret", secret)], authorization: TokenFixture.basic("web", secret))
        }
        #expect(both == .invalidRequest || both == .invalidClient)
        // Malformed Basic.
        #expect(fixture.errorCode { _ = try fixture.token(refresh, authorization: "Basic !!!") } == .invalidClient)
        // The right credentials pass authentication (and then fail on the unknown token).
        #expect(fixture.errorCode { _ = try fixture.token(refresh, authorization: TokenFixture.basic("web", secret)) } == .invalidGrant)
        #expect(fixture.errorCode { _ = try fixture.token(refresh + [("client_id", "poster"), ("client_secret", postSecret)]) } == .invalidGrant)
    }
}

/// The byte-level Basic decoder answers only what Foundation's would answer, and leaves
/// everything unusual (percent escapes, `+`, non-ASCII, bad padding) to Foundation.
@Suite struct BasicCredentialsDecodingTests {
    static func basic(_ text: String, padding: Bool = true) -> String {
        var encoded = Data(text.utf8).base64EncodedString()
        if !padding { encoded = encoded.replacingOccurrences(of: "=", with: "") }
        return "Basic " + encoded
    }

    static let headers: [String] = [
        basic("app:s3cret"), basic("app:s3cr"), basic("a:b"), basic("bench-service:Zm9v_-bar"),
        basic("app:" + String(repeating: "x", count: 43)), "Basic  " + Data("app:pw".utf8).base64EncodedString() + " \t",
        basic("my%20app:pa%2Bss"), basic("my+app:pa+ss"), basic("app:p%zz"), basic(":secret"), basic("app"),
        basic("app:s3cret", padding: false), basic("äpp:sécret"), "Basic YXBwOnB3=", "Basic YXBw-nB3", "Basic YX=wOnB3",
        "Basic ", "Basic !!!", "basic YXBwOnB3", "Basic\u{00A0}YXBwOnB3",
    ]

    @Test(arguments: headers)
    func usualPathAgreesWithFoundation(_ header: String) {
        let foundation = ClientAuthenticator.decodeAnyBasic(header)
        let usual = ClientAuthenticator.decodeUsualBasic(header)
        if let usual {
            #expect([usual.0, usual.1] == foundation.map { [$0.0, $0.1] }, "\(header)")
        }
        #expect(ClientAuthenticator.decodeBasic(header).map { [$0.0, $0.1] } == foundation.map { [$0.0, $0.1] }, "\(header)")
    }

    @Test func usualHeadersTakeTheBytePath() {
        #expect(ClientAuthenticator.decodeUsualBasic(Self.basic("app:s3cret")).map { [$0.0, $0.1] } == ["app", "s3cret"])
        #expect(ClientAuthenticator.decodeUsualBasic(Self.basic("my%20app:x")) == nil)
    }
}
