import Foundation
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// The options endpoints' limits over real HTTP: per client address (`passkeys.options_per_minute`,
/// 429 with `Retry-After`), and the bound of `passkey_ceremonies` (`passkeys.max_ceremonies`, 503).
@Suite("Passkey options limits", .serialized, .endToEndLimit) struct PasskeyRateLimitTests {
    func nativeForm(_ pkce: PKCEPair) -> [(String, String)] {
        [("response_type", "code"), ("client_id", "native"), ("redirect_uri", Interactive.callback), ("scope", "openid"),
         ("state", "s"), ("nonce", "n"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]
    }

    func nativeOptions(_ fixture: PasskeyFixture) async throws -> TestResponse {
        try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: nativeForm(PKCEPair.generate()))
    }

    @Test func anAddressThatAsksTooOftenGets429AndNothingIsStored() async throws {
        let fixture = try await PasskeyFixture {
            $0.passkeys.optionsPerMinute = 2
            $0.passkeys.maxCeremonies = 3
        }
        defer { fixture.stop() }
        // The web sign-in options and the native ones share the address's budget.
        _ = try await fixture.startSignIn()
        #expect(try await nativeOptions(fixture).status == 200)
        let limited = try await nativeOptions(fixture)
        expectPasskeyError(limited, status: 429, "temporarily_unavailable", "Too many passkey requests")
        #expect(limited.header("Retry-After") == "60")
        let csrf = try await fixture.registrationCSRF()
        let web = try await fixture.client(fixture.browser).post(fixture.server.url(Routes.passkeyRegisterOptions), form: [("csrf", csrf)])
        expectPasskeyError(web, status: 429, "temporarily_unavailable", "Too many passkey requests")
        // A minute later the address may ask again. The refused requests stored nothing: the
        // table (bound 3) has room for exactly one more.
        fixture.server.clock.advance(by: 61)
        #expect(try await nativeOptions(fixture).status == 200)
        expectPasskeyError(try await nativeOptions(fixture), status: 503, "temporarily_unavailable", "Too many passkey requests are open")
    }

    @Test func theCeremonyTableStaysBoundedAndMakesRoomFromSpentChallenges() async throws {
        let fixture = try await PasskeyFixture {
            $0.passkeys.optionsPerMinute = 1000
            $0.passkeys.maxCeremonies = 3
        }
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)   // one row, used
        let (browser, options) = try await fixture.startSignIn()
        #expect(try await nativeOptions(fixture).status == 200)
        #expect(try await nativeOptions(fixture).status == 200)   // takes the used registration's place
        // Full of live challenges: a flood gets 503 and the table does not grow.
        for _ in 0..<5 {
            expectPasskeyError(try await nativeOptions(fixture), status: 503, "temporarily_unavailable", "Too many passkey requests are open")
        }
        // A finished ceremony makes room for one.
        let signedIn = try await fixture.finishSignIn(try device.assert(options), browser: browser)
        #expect(signedIn.status == 200, "\(signedIn)")
        #expect(try await nativeOptions(fixture).status == 200)
        expectPasskeyError(try await nativeOptions(fixture), status: 503, "temporarily_unavailable", "open")
        // Expired challenges make room too, and the purge removes them.
        fixture.server.clock.advance(by: 301)
        for _ in 0..<3 { #expect(try await nativeOptions(fixture).status == 200) }
        expectPasskeyError(try await nativeOptions(fixture), status: 503, "temporarily_unavailable", "open")
        fixture.server.clock.advance(by: 301)
        #expect(try fixture.server.environment.storage.purge(before: fixture.server.clock.now) >= 3)
        for _ in 0..<3 { #expect(try await nativeOptions(fixture).status == 200) }
    }
}
