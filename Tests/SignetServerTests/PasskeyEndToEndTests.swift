import Foundation
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import SignetWebAuthn
import Testing

/// Passkey registration and sign-in over real HTTP with a software authenticator, and every
/// hostile variation of an otherwise valid ceremony: each refused with a clear error, nothing stored.
@Suite("Passkeys over HTTP", .serialized, .endToEndLimit) struct PasskeyEndToEndTests {
    /// The ID token's claims for a code.
    func claims(_ fixture: PasskeyFixture, location: String, pkce: PKCEPair) async throws -> [String: JSONValue] {
        let code = try URLQuery(queryOf: location).single("code")
        let tokens = try await fixture.env.redeem(code: code, pkce: pkce)
        #expect(tokens.status == 200, "\(tokens)")
        let idToken = try #require(try tokens.json()["id_token"]?.stringValue)
        return try #require(try JSONValue.parse(Base64URL.decode(idToken.split(separator: ".")[1]) ?? []).objectValue)
    }

    @Test func registerThenSignInWithThePasskeyGivesHwkOrSwkAndUser() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        let registered = try await fixture.register(device)
        #expect(try registered.json()["name"] == "Security key")
        let stored = try #require(try fixture.passkeys().first)
        #expect(stored.id == device.credentialID && !stored.backupEligible && stored.transports == ["internal"] && stored.signCount == 0)
        #expect(try COSEKey(bytes: stored.publicKey).algorithm == .edDSA)

        // Options: a discoverable sign-in with user verification required, the RP ID, 5 minutes.
        let pkce = PKCEPair.generate()
        let (browser, options) = try await fixture.startSignIn(pkce: pkce)
        #expect(options["rpId"]?.stringValue == fixture.rpID)
        #expect(options["userVerification"] == "required" && options["allowCredentials"] == .array([]))
        #expect(options["timeout"] == .int(300_000))
        #expect(Base64URL.decode(SoftwareAuthenticator.challenge(options))?.count == 32)
        let finished = try await fixture.finishSignIn(try device.assert(options), browser: browser)
        #expect(finished.status == 200, "\(finished)")
        #expect(finished.setCookies.contains { $0.hasPrefix("signet_session=sgs_") })
        let location = try #require(try finished.json()["location"]?.stringValue)
        #expect(location.hasPrefix(Interactive.callback + "?code="))
        // RFC 8176: a device-bound key is "hwk", and user verification "user"; no "pwd".
        #expect(try await claims(fixture, location: location, pkce: pkce)["amr"] == .array(["hwk", "user"]))
        let used = try #require(try fixture.passkeys().first)
        #expect(used.signCount == 1 && used.lastUsedAt != nil)

        // A syncable passkey (BE set) is "swk".
        let synced = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin, backupEligible: true)
        let second = try await fixture.register(synced)
        #expect(try second.json()["name"] == "Passkey")
        let pkce2 = PKCEPair.generate()
        let (browser2, options2) = try await fixture.startSignIn(pkce: pkce2)
        let finished2 = try await fixture.finishSignIn(try synced.assert(options2), browser: browser2)
        let location2 = try #require(try finished2.json()["location"]?.stringValue)
        #expect(try await claims(fixture, location: location2, pkce: pkce2)["amr"] == .array(["swk", "user"]))
        // The registration options exclude what is registered.
        let again = try await fixture.registrationOptions()
        #expect(again["excludeCredentials"]?.arrayValue?.count == 2)
        #expect(again["authenticatorSelection"]?["userVerification"] == "required")
        #expect(again["authenticatorSelection"]?["residentKey"] == "required")
    }

    @Test func aReplayedChallengeIsRefusedAndCountsNothing() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let (browser, options) = try await fixture.startSignIn()
        let body = try device.assert(options)
        #expect(try await fixture.finishSignIn(body, browser: browser).status == 200)
        let after = try fixture.passkeys()
        expectPasskeyError(try await fixture.finishSignIn(body, browser: browser), "invalid_request", "unknown, expired or already used")
        #expect(try fixture.passkeys() == after)
        // A registration response replayed: refused, nothing added.
        let registrationOptions = try await fixture.registrationOptions()
        let other = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        let registration = other.register(registrationOptions)
        #expect(try await fixture.postJSON(Routes.passkeyRegisterFinish, registration, browser: fixture.browser).status == 200)
        let registered = try fixture.passkeys()
        expectPasskeyError(try await fixture.postJSON(Routes.passkeyRegisterFinish, registration, browser: fixture.browser),
                           "invalid_request", "unknown, expired or already used")
        #expect(try fixture.passkeys() == registered)
    }

    @Test func aChallengeExpiresAfterFiveMinutes() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let (browser, options) = try await fixture.startSignIn()
        fixture.server.clock.advance(by: 301)
        expectPasskeyError(try await fixture.finishSignIn(try device.assert(options), browser: browser), "invalid_request",
                           "unknown, expired or already used")
    }

    /// Each hostile change to an otherwise valid assertion: refused, the credential unchanged.
    @Test func hostileAssertionsAreRefusedAndChangeNothing() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let before = try fixture.passkeys()
        let cases: [(String, (JSONValue) throws -> [UInt8], String, String)] = [
            ("wrong origin", { try device.assert($0, origin: "https://evil.example") }, "invalid_request", "origin \"https://evil.example\" is not allowed"),
            ("wrong RP ID hash", { try device.assert($0, rpID: "evil.example") }, "invalid_request", "rpIdHash is not SHA-256 of the RP ID"),
            ("UP unset", { try device.assert($0, flags: 0x04) }, "invalid_request", "user-present (UP) flag is not set"),
            ("UV unset", { try device.assert($0, flags: 0x01) }, "invalid_request", "user-verified (UV) flag is not set"),
            ("BE changed", { try device.assert($0, flags: 0x0D) }, "access_denied", "backup-eligible (BE) flag changed"),
            ("unknown credential", { try device.assert($0, credentialID: SecureRandom.bytes(16)) }, "access_denied", "not registered here"),
            ("another challenge", { try device.assert($0, challenge: Base64URL.encode(SecureRandom.bytes(32))) }, "invalid_request",
             "unknown, expired or already used"),
        ]
        for (name, make, code, description) in cases {
            let (browser, options) = try await fixture.startSignIn()
            let response = try await fixture.finishSignIn(try make(options), browser: browser)
            expectPasskeyError(response, code, description)
            #expect(try fixture.passkeys() == before, "\(name) changed the credential")
            device.signCount = 0
        }
        // A valid assertion from another browser than the one the challenge was issued to.
        let (_, options) = try await fixture.startSignIn()
        expectPasskeyError(try await fixture.finishSignIn(try device.assert(options), browser: FormBrowser()), status: 400, "access_denied",
                           "issued to another session")
        #expect(try fixture.passkeys() == before)
    }

    @Test func aCounterThatWentBackwardsIsRefusedAndFlagsTheCredential() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let (browser, options) = try await fixture.startSignIn()
        #expect(try await fixture.finishSignIn(try device.assert(options, counter: 5), browser: browser).status == 200)
        let (browser2, options2) = try await fixture.startSignIn()
        expectPasskeyError(try await fixture.finishSignIn(try device.assert(options2, counter: 3), browser: browser2), "access_denied",
                           "counter went backwards")
        let flagged = try #require(try fixture.passkeys().first)
        #expect(flagged.flaggedAt != nil && flagged.signCount == 5)
        // Flagged: refused from now on, whatever the counter.
        let (browser3, options3) = try await fixture.startSignIn()
        expectPasskeyError(try await fixture.finishSignIn(try device.assert(options3, counter: 50), browser: browser3), "access_denied",
                           "blocked")
        #expect(try fixture.passkeys() == [flagged])
        // The management page says so.
        let page = try await fixture.client(fixture.browser).get(fixture.server.url(Routes.accountPasskeys))
        #expect(page.text.contains("Blocked: its counter went backwards"))
    }

    @Test func malformedOversizedAndMistypedBodiesAreRefused() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let before = try fixture.passkeys()
        let (browser, options) = try await fixture.startSignIn()
        let valid = try device.assert(options)
        let huge = Array("{\"type\":\"public-key\",\"pad\":\"".utf8) + [UInt8](repeating: 0x61, count: 70_000) + Array("\"}".utf8)
        expectPasskeyError(try await fixture.finishSignIn(huge, browser: browser), "invalid_request", "response JSON is longer than 65536")
        expectPasskeyError(try await fixture.finishSignIn(Array("{\"type\":".utf8), browser: browser), "invalid_request",
                           "response JSON is malformed")
        expectPasskeyError(try await fixture.finishSignIn(Array("{\"type\":\"public-key\"}".utf8), browser: browser), "invalid_request",
                           "response is malformed")
        expectPasskeyError(try await fixture.postJSON(Routes.passkeySignInFinish, valid, browser: browser, type: "text/plain"),
                           "invalid_request", "must be application/json")
        // The challenge was not used by any of these: the valid response still signs in.
        #expect(try await fixture.finishSignIn(valid, browser: browser).status == 200)

        // Registration: CBOR that is not a map, CBOR with trailing bytes, a COSE key with a private part.
        func attestation(_ bytes: [UInt8], _ options: JSONValue) -> [UInt8] {
            var json = (try? JSONValue.parse(device.register(options)))?.objectValue ?? [:]
            var response = json["response"]?.objectValue ?? [:]
            response["attestationObject"] = .string(Base64URL.encode(bytes))
            json["response"] = .object(response)
            return JSONValue.object(json).serialized()
        }
        let registeredBefore = try fixture.passkeys()
        let cborCases: [([UInt8], String)] = [
            ([0x83, 0x01, 0x02, 0x03], "not a CBOR map"),
            ([0xA0, 0x00], "attestationObject"),
            ([0xBF, 0xFF], "attestationObject"),
            ([0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "attestationObject"),
        ]
        for (bytes, description) in cborCases {
            let registration = try await fixture.registrationOptions()
            expectPasskeyError(try await fixture.postJSON(Routes.passkeyRegisterFinish, attestation(bytes, registration), browser: fixture.browser),
                               "invalid_request", description)
        }
        #expect(try fixture.passkeys() == registeredBefore)
        _ = before
    }

    @Test func registrationNeedsTheSessionItsChallengeWasIssuedToAndItsCSRFToken() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        // No session: no options, no finish.
        let anonymous = FormBrowser()
        expectPasskeyError(try await fixture.client(anonymous).post(fixture.server.url(Routes.passkeyRegisterOptions), form: [("csrf", "x")]),
                           "login_required", "Sign in first")
        // A session without the page's CSRF token.
        expectPasskeyError(try await fixture.client(fixture.browser).post(fixture.server.url(Routes.passkeyRegisterOptions), form: [("csrf", "x")]),
                           "access_denied", "could not be verified")
        // Options for Alice's session, finished by another signed-in session (Alice in another browser).
        let options = try await fixture.registrationOptions()
        let other = FormBrowser()
        _ = try await fixture.env.signIn(other, pkce: PKCEPair.generate())
        expectPasskeyError(try await fixture.postJSON(Routes.passkeyRegisterFinish, device.register(options), browser: other),
                           "access_denied", "issued to another session")
        expectPasskeyError(try await fixture.postJSON(Routes.passkeyRegisterFinish, device.register(options), browser: anonymous),
                           "login_required", "Sign in first")
        // A registration without user verification.
        let options2 = try await fixture.registrationOptions()
        expectPasskeyError(try await fixture.postJSON(Routes.passkeyRegisterFinish, device.register(options2, flags: 0x01), browser: fixture.browser),
                           "invalid_request", "user-verified (UV) flag is not set")
        // A sign-in challenge is not a registration challenge.
        let (_, signIn) = try await fixture.startSignIn()
        expectPasskeyError(try await fixture.postJSON(Routes.passkeyRegisterFinish, device.register(signIn), browser: fixture.browser),
                           "invalid_request", "unknown, expired or already used")
        #expect(try fixture.passkeys().isEmpty)
        // The same credential twice: refused.
        try await fixture.register(device)
        let options3 = try await fixture.registrationOptions()
        expectPasskeyError(try await fixture.postJSON(Routes.passkeyRegisterFinish, device.register(options3), browser: fixture.browser),
                           "invalid_request", "registered already")
        #expect(try fixture.passkeys().count == 1)
    }

    @Test func theAccountPageRenamesAndRemovesOnlyWithItsCSRFToken() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        let page = try await fixture.browser.open(fixture.server.url(Routes.accountPasskeys))
        #expect(page.response.status == 200)
        expectHardened(page.response)
        #expect(page.response.header("Content-Security-Policy")?.contains("script-src 'self'; connect-src 'self'; frame-ancestors 'none'") == true)
        #expect(page.response.text.contains("<script src=\"/assets/passkeys-"))
        #expect(!page.response.text.contains("<script>"))
        #expect(page.response.text.contains("Security key"))

        // Without the token: refused, nothing renamed.
        let forged = try await fixture.client(fixture.browser).post(fixture.server.url(Routes.accountPasskeysRename), form: [
            ("id", Base64URL.encode(device.credentialID)), ("name", "Forged")])
        #expect(forged.status == 403)
        #expect(try fixture.passkeys().first?.name == "Security key")

        let renamed = try await fixture.browser.submit(formWithAction: Routes.accountPasskeysRename, fields: ["name": "  Laptop\u{7}  "])
        #expect(renamed.response.status == 200, "\(renamed.response)")
        #expect(try fixture.passkeys().first?.name == "Laptop")
        #expect(renamed.response.text.contains("Laptop"))

        // Another user's session cannot remove it.
        let bob = try fixture.server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: "bob password 123")
        let bobBrowser = FormBrowser()
        _ = try await bobBrowser.open(fixture.env.authorizeURL(pkce: PKCEPair.generate()))
        _ = try await fixture.env.submitCredentials(bobBrowser, email: bob.email, password: "bob password 123")
        let bobCSRF = try await fixture.registrationCSRF(bobBrowser)
        let stolen = try await fixture.client(bobBrowser).post(fixture.server.url(Routes.accountPasskeysRemove), form: [
            ("csrf", bobCSRF), ("id", Base64URL.encode(device.credentialID))])
        #expect(stolen.status == 404)
        #expect(try fixture.passkeys().count == 1)

        let removed = try await fixture.browser.submit(formWithAction: Routes.accountPasskeysRemove)
        #expect(removed.response.status == 200)
        #expect(try fixture.passkeys().isEmpty)
        #expect(removed.response.text.contains("You have no passkeys yet."))
        // The removed passkey no longer signs in.
        let (browser, options) = try await fixture.startSignIn()
        expectPasskeyError(try await fixture.finishSignIn(try device.assert(options), browser: browser), "access_denied", "not registered here")

        // Signed out: the page says so.
        let signedOut = try await HTTPTestClient().get(fixture.server.url(Routes.accountPasskeys))
        #expect(signedOut.status == 401)
    }

    @Test func theSignInPageOffersPasskeysWithTheScriptAndWorksWithoutIt() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let page = try await browser.open(env.authorizeURL(pkce: PKCEPair.generate()))
        let html = page.response.text
        #expect(html.contains("autocomplete=\"username webauthn\""))
        #expect(html.contains("id=\"passkey-button\" hidden>Sign in with a passkey</button>"))
        #expect(html.contains("data-mode=\"signin\""))
        let csp = try #require(page.response.header("Content-Security-Policy"))
        #expect(csp.contains("script-src 'self'; connect-src 'self'"))
        // The script directive allows only the same origin: no inline script, no eval.
        let scriptDirective = csp.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("script-src") }
        #expect(scriptDirective == ["script-src 'self'"])
        // The script: same origin, long cached, JavaScript.
        let path = try #require(html.range(of: "<script src=\"").map { html[$0.upperBound...].prefix { $0 != "\"" } })
        let script = try await HTTPTestClient().get(env.server.url(String(path)))
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(script.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(script.text.contains("navigator.credentials.get"))
        // Without the script the password path is unchanged: straight to the client, no offer.
        let outcome = try await env.submitCredentials(browser)
        #expect(try outcome.requireRedirect().location.hasPrefix(Interactive.callback + "?code="))
    }

    @Test func theOfferAfterAPasswordSignInIsShownToCapableBrowsersAndNotNowHoldsItBack() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: PKCEPair.generate()))
        let offer = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": Interactive.email, "password": Interactive.password,
                                                                                    "passkey_capable": "1"])
        #expect(offer.response.status == 200)
        #expect(offer.response.url.path == Routes.passkeyOffer)
        #expect(offer.response.text.contains("Add a passkey?"))
        let skipped = try await browser.submit(formWithAction: Routes.passkeyOffer, pressing: "skip")
        #expect(try skipped.requireRedirect().location.hasPrefix(Interactive.callback + "?code="))
        #expect(browser.cookies["signet_passkey_later"]?.value == "1")
        // Not again in this browser.
        _ = try await browser.open(env.authorizeURL(pkce: PKCEPair.generate(), extra: [("prompt", "login")]))
        let next = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": Interactive.email, "password": Interactive.password,
                                                                                   "passkey_capable": "1"])
        #expect(try next.requireRedirect().location.hasPrefix(Interactive.callback + "?code="))
    }

    @Test func theOfferFollowsASignUpInACapableBrowserAndNeverOneWithoutTheScript() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        // The code page loads the script, which marks its form when the browser can make passkeys.
        let capable = FormBrowser()
        let codePage = try await accounts.signUp(capable, pkce: PKCEPair.generate(), email: "bea@example.com")
        #expect(codePage.url.path == Routes.emailCode)
        #expect(codePage.response.text.contains("<script src=\"/assets/passkeys-") && codePage.response.text.contains("data-mode=\"capable\" data-form=\"email-code-form\""))
        #expect(codePage.response.header("Content-Security-Policy")?.contains("script-src 'self'; connect-src 'self'") == true)
        let code = try Accounts.code(in: try await accounts.mail(1))
        let offer = try await capable.submit(formWithAction: Routes.emailCode, fields: ["code": code, "passkey_capable": "1"])
        #expect(offer.response.status == 200 && offer.response.url.path == Routes.passkeyOffer, "\(offer.response)")
        #expect(offer.response.text.contains("Add a passkey?"))
        let skipped = try await capable.submit(formWithAction: Routes.passkeyOffer, pressing: "skip")
        #expect(try skipped.requireRedirect().location.hasPrefix(Interactive.callback + "?code="))
        // Without the flag (no script, no platform authenticator): straight on to the client.
        let plain = FormBrowser()
        _ = try await accounts.signUp(plain, pkce: PKCEPair.generate(), email: "cy@example.com")
        let plainCode = try Accounts.code(in: try await accounts.mail(2))
        let done = try await plain.submit(formWithAction: Routes.emailCode, fields: ["code": plainCode])
        #expect(try done.requireRedirect().location.hasPrefix(Interactive.callback + "?code="))
    }
}
