import Foundation
import SignetClientCore
import SignetCore
import SignetKit
import SignetResource
import SignetServer
import SignetTesting
import Testing

/// RFC 9470 end to end: an API (SignetResource) refuses a password-only token with
/// `insufficient_user_authentication`; SignetKit reads the challenge and signs in again with its
/// `acr_values` at the real server, which asks the user for the second factor; the new token
/// passes the API's check.
@Suite("Step-up authentication", .endToEndLimit) struct StepUpEndToEndTests {
    static let mfa = "urn:signet:acr:mfa"

    @Test func anAPIsChallengeIsMetBySigningInAgainWithItsACRValues() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let client = try await fixture.client()
        let session = try await fixture.signIn(client)
        let first = try #require(await session.currentTokens)
        // The API's clock is the server's manual clock (tokens are issued at its time).
        let metadata = try await DiscoveryClient.fetch(issuer: fixture.server.issuer, http: OutboundHTTP())
        let validator = AccessTokenValidator(issuer: fixture.server.issuer, audience: fixture.server.issuer,
                                             keys: JWKSCache(jwksURI: metadata.jwksURI, http: OutboundHTTP()), clock: fixture.clock)
        let token = try await validator.validate(token: first.accessToken)
        #expect(token.acr == "urn:signet:acr:pwd")

        // The API wants mfa: 401 and the challenge.
        var challengeHeader = ""
        do {
            try token.requireAuthentication(acrValues: [Self.mfa], maxAge: 300, now: fixture.server.clock.now, realm: "api")
            Issue.record("a password-only token met mfa")
        } catch {
            #expect(error.status == 401)
            #expect(error.code == .insufficientUserAuthentication)
            challengeHeader = error.wwwAuthenticate
        }
        #expect(challengeHeader == #"Bearer realm="api", error="insufficient_user_authentication", error_description="A stronger authentication is required.", acr_values="urn:signet:acr:mfa", max_age="300""#)
        let challenge = try #require(StepUpChallenge(wwwAuthenticate: challengeHeader))
        #expect(challenge.acrValues == [Self.mfa] && challenge.maxAge == 300)

        // The user has an authenticator app (set up through the service; the pages are tested in SignetServerTests).
        let service = SecondFactorService(server: fixture.server.application.authorizationServer,
                                          key: fixture.server.environment.masterKey.secondFactorKey)
        let totp = try #require(try service.enrolment(userID: fixture.userID))
        let setup = try service.confirm(userID: fixture.userID, code: totp.code(step: TOTP.step(at: fixture.server.clock.now)))
        #expect((try? setup.get())?.count == 10)
        fixture.server.clock.advance(by: 30)

        let listener = try LoopbackListener()
        let (urls, opened) = AsyncStream<URL>.makeStream()
        async let stepped = client.signIn(with: listener, stepUp: challenge, timeout: 30) { url in
            opened.yield(url)
            opened.finish()
        }
        var iterator = urls.makeAsyncIterator()
        let url = try #require(await iterator.next())
        let query = try URLQuery(queryOf: url.absoluteString)
        #expect(try query.single("acr_values") == Self.mfa && query.single("max_age") == "300")
        let browser = FormBrowser()
        _ = try await browser.open(url)
        let codePage = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": KitFixture.email, "password": KitFixture.password])
        #expect(codePage.url.path == Routes.secondFactor, "\(codePage)")
        let passed = try await browser.submit(formWithAction: Routes.secondFactor,
                                              fields: ["code": totp.code(step: TOTP.step(at: fixture.server.clock.now))])
        let delivered = try await HTTPTestClient().get(try #require(try passed.requireRedirect().url))
        #expect(delivered.status == 200)
        let upgraded = try await stepped
        let tokens = try #require(await upgraded.currentTokens)
        #expect(tokens.claims["acr"] == Self.mfa)
        let strong = try await validator.validate(token: tokens.accessToken)
        #expect(strong.acr == Self.mfa && strong.amr == ["pwd", "otp", "mfa"])
        try strong.requireAuthentication(acrValues: [Self.mfa], maxAge: 300, now: fixture.server.clock.now)
        // A phr request is not met by mfa; max_age past: not met either.
        #expect(throws: BearerError.self) { try strong.requireAuthentication(acrValues: ["urn:signet:acr:phr"]) }
        #expect(throws: BearerError.self) {
            try strong.requireAuthentication(maxAge: 10, now: fixture.server.clock.now.addingTimeInterval(11))
        }
    }

    @Test func challengesAreReadStrictly() {
        let good = StepUpChallenge(wwwAuthenticate: #"Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="myACR other""#)
        #expect(good?.acrValues == ["myACR", "other"] && good?.maxAge == nil)
        #expect(StepUpChallenge(wwwAuthenticate: #"bearer ERROR="insufficient_user_authentication", Max_Age=5"#)?.maxAge == 5)
        #expect(good?.authorizationParameters.map { "\($0.0)=\($0.1)" } == ["acr_values=myACR other"])
        for bad in [#"Bearer error="invalid_token", acr_values="x""#, #"Basic realm="x""#,
                    #"Bearer error="insufficient_user_authentication""#,
                    #"Bearer error="insufficient_user_authentication", max_age="-1""#,
                    #"Bearer error="insufficient_user_authentication", max_age="5", max_age="6""#,
                    #"Bearer error="insufficient_user_authentication", acr_values="unterminated"#] {
            #expect(StepUpChallenge(wwwAuthenticate: bad) == nil, "\(bad)")
        }
    }
}
