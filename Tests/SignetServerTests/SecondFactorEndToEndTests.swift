import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// TOTP enrolment, the second-factor step, recovery codes, `mfa.required`, `acr_values`,
/// `max_age` and `prompt=none`, over real HTTP, with pyotp and zbarimg as the independent ends.
@Suite(.endToEndLimit, .enabled(if: RealPart.pyotp.canRun && RealPart.zbar.canRun, "needs pyotp and zbarimg"))
struct SecondFactorEndToEndTests {
    static let mfa = "urn:signet:acr:mfa"

    /// Set up on the account page from the QR code (zbarimg → pyotp), then a sign-in asks for a
    /// code: the enrolment's step is refused (used once), the next step's code lets the user in
    /// with `amr` pwd otp mfa and `acr` mfa in both tokens; that code is refused on a second sign-in.
    @Test func enrolmentThenSecondFactorWithReplayRefused() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let enrolled = try await SecondFactorSupport.enrol(env)
        // The key shown as text is the QR code's.
        let factor = try #require(try env.server.environment.storage.secondFactors.totpFactor(userID: env.user.id))
        #expect(factor.isConfirmed)
        // Stored sealed: the secret's bytes appear nowhere in the row.
        let secret = try #require(Base32.decode(enrolled.secret))
        #expect(secret.count == 20)
        #expect(!(0...(factor.sealedSecret.count - 20)).contains { Array(factor.sealedSecret[$0..<$0 + 20]) == secret })

        // A new browser: password, then the code page, not the client.
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        _ = try await browser.open(env.authorizeURL(pkce: pkce))
        let afterPassword = try await env.submitCredentials(browser)
        #expect(afterPassword.status == 200 && afterPassword.url.path == Routes.secondFactor, "\(afterPassword)")
        #expect(Interactive.sessionCookie(browser) == nil)
        expectHardened(afterPassword.response)
        #expect(afterPassword.response.text.contains("autocomplete=\"one-time-code\""))

        // The enrolment's code (same step): refused, back to the form with the message.
        let replay = try SecondFactorSupport.pyotp(secretOrURI: enrolled.secret, at: env.server.clock.now)
        let refused = try await browser.submit(formWithAction: Routes.secondFactor, fields: ["code": replay])
        #expect(refused.status == 200 && refused.url.query?.contains("error=1") == true, "\(refused)")
        #expect(Interactive.sessionCookie(browser) == nil)

        env.server.clock.advance(by: 30)
        let code = try SecondFactorSupport.pyotp(secretOrURI: enrolled.secret, at: env.server.clock.now)
        let passed = try await browser.submit(formWithAction: Routes.secondFactor, fields: ["code": code])
        let redirect = try passed.requireRedirect()
        #expect(redirect.base == Interactive.callback)
        let query = try redirect.query()
        #expect(try query.single("state") == "st-123" && query.single("iss") == env.server.issuer)
        #expect(Interactive.sessionCookie(browser) != nil)
        let claims = try await SecondFactorSupport.tokenClaims(env, code: try query.single("code"), pkce: pkce)
        #expect(claims.id["amr"] == .array(["pwd", "otp", "mfa"]))
        #expect(claims.id["acr"] == .string(Self.mfa))
        #expect(claims.access["acr"] == .string(Self.mfa))
        #expect(claims.access["amr"] == .array(["pwd", "otp", "mfa"]))
        #expect(claims.id["auth_time"] == .int(Int64(env.server.clock.now.timeIntervalSince1970)))

        // The same code again, from another browser within its step: refused.
        let other = FormBrowser()
        _ = try await other.open(env.authorizeURL(pkce: .generate()))
        _ = try await env.submitCredentials(other)
        let again = try await other.submit(formWithAction: Routes.secondFactor, fields: ["code": code])
        #expect(again.status == 200 && again.url.query?.contains("error=1") == true, "\(again)")
        #expect(Interactive.sessionCookie(other) == nil)
    }

    /// Five wrong codes, then even the right one is refused unread: 429 with Retry-After, and no
    /// session. A recovery code works once.
    @Test func bruteForceIsThrottledAndARecoveryCodeWorksOnce() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let enrolled = try await SecondFactorSupport.enrol(env)
        env.server.clock.advance(by: 30)
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        _ = try await env.submitCredentials(browser)
        let right = try SecondFactorSupport.pyotp(secretOrURI: enrolled.secret, at: env.server.clock.now)
        let wrong = right == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            let refused = try await browser.submit(formWithAction: Routes.secondFactor, fields: ["code": wrong])
            #expect(refused.status == 200 && refused.url.query?.contains("error=1") == true)
        }
        let throttled = try await browser.submit(formWithAction: Routes.secondFactor, fields: ["code": right])
        #expect(throttled.status == 429, "\(throttled)")
        #expect(throttled.response.header("Retry-After") == "900")
        expectHardened(throttled.response)
        #expect(Interactive.sessionCookie(browser) == nil)
        // The right code was not used: past the window it still works... in its step; a recovery
        // code after the window lets the user in once.
        env.server.clock.advance(by: 901)
        let pkce = PKCEPair.generate()
        let fresh = FormBrowser()
        _ = try await fresh.open(env.authorizeURL(pkce: pkce))
        _ = try await env.submitCredentials(fresh)
        let recovery = enrolled.recoveryCodes[3]
        let passed = try await fresh.submit(formWithAction: Routes.secondFactor, fields: ["code": recovery.lowercased()])
        let query = try passed.requireRedirect().query()
        let claims = try await SecondFactorSupport.tokenClaims(env, code: try query.single("code"), pkce: pkce)
        #expect(claims.id["amr"] == .array(["pwd", "otp", "mfa"]))
        #expect(try env.server.environment.storage.secondFactors.unusedRecoveryCodes(userID: env.user.id) == 9)
        // Used: refused the second time.
        let twice = FormBrowser()
        _ = try await twice.open(env.authorizeURL(pkce: .generate()))
        _ = try await env.submitCredentials(twice)
        let reused = try await twice.submit(formWithAction: Routes.secondFactor, fields: ["code": recovery])
        #expect(reused.status == 200 && reused.url.query?.contains("error=1") == true, "\(reused)")
        #expect(Interactive.sessionCookie(twice) == nil)
    }

    /// `mfa.required`: after the password, a user without a factor sets one up before any code
    /// is issued; then the recovery codes, Continue, and the code with `acr` mfa.
    @Test func mfaRequiredForcesEnrolmentBeforeTheCode() async throws {
        let env = try Interactive { $0.mfa.required = true }
        defer { env.stop() }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        _ = try await browser.open(env.authorizeURL(pkce: pkce))
        let setup = try await env.submitCredentials(browser)
        #expect(setup.status == 200 && setup.url.path == Routes.secondFactorSetup, "\(setup)")
        #expect(setup.redirect == nil && Interactive.sessionCookie(browser) == nil)
        expectHardened(setup.response)
        let uri = try SecondFactorSupport.decodeInlineQR(setup.response.text)
        let shown = try SecondFactorSupport.shownSecret(setup.response.text)
        #expect(uri.hasPrefix("otpauth://totp/") && uri.contains("secret=\(shown)&"))
        // A wrong first code: back to the form, nothing confirmed.
        let wrongFirst = try await browser.submit(formWithAction: Routes.secondFactorSetup, fields: ["code": "12345"])
        #expect(wrongFirst.status == 200 && wrongFirst.url.query?.contains("error=1") == true)
        #expect(try env.server.environment.storage.secondFactors.totpFactor(userID: env.user.id)?.isConfirmed == false)
        let code = try SecondFactorSupport.pyotp(secretOrURI: uri, at: env.server.clock.now)
        let codes = try await browser.submit(formWithAction: Routes.secondFactorSetup, fields: ["code": code])
        #expect(codes.status == 200, "\(codes)")
        #expect(SecondFactorSupport.recoveryCodes(codes.response.text).count == 10)
        let done = try await browser.submit(formWithAction: Routes.signInContinue)
        let query = try done.requireRedirect().query()
        let claims = try await SecondFactorSupport.tokenClaims(env, code: try query.single("code"), pkce: pkce)
        #expect(claims.id["acr"] == .string(Self.mfa))
        #expect(claims.id["amr"] == .array(["pwd", "otp", "mfa"]))
    }

    /// A client's own `mfa_required` (kept in the client record): the same enrolment for its
    /// sign-ins only.
    @Test func aClientsMFARequiredForcesEnrolmentForThatClient() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let now = env.server.clock.now
        try env.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "bank", name: "Bank", isPublic: true, firstParty: true, redirectURIs: [Interactive.loopback],
            allowedScopes: ["openid"], grantTypes: ["authorization_code"], tokenEndpointAuthMethod: "none",
            createdAt: now, updatedAt: now, extra: Client.extra(mfaRequired: true)))
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "bank", pkce: .generate(), extra: [("scope", "openid")]))
        let setup = try await env.submitCredentials(browser)
        #expect(setup.url.path == Routes.secondFactorSetup, "\(setup)")
        // The other clients are not affected.
        let plain = FormBrowser()
        let target = try await env.signIn(plain, pkce: .generate())
        #expect(target.base == Interactive.callback)
    }

    /// A password session meets `pwd` but not `acr_values=…:mfa`: the same browser is asked for
    /// its code (step-up, no password again), and the token then says mfa. With `prompt=none`
    /// the client gets `login_required` (with `iss` and `state`) instead of a weaker session.
    @Test func acrValuesMFAStepsUpAPasswordSession() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let enrolled = try await SecondFactorSupport.enrol(env)
        let browser = enrolled.browser
        let before = try #require(Interactive.sessionCookie(browser)?.value)

        let none = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("acr_values", Self.mfa), ("prompt", "none")]))
        let error = try none.requireRedirect()
        #expect(error.base == Interactive.callback)
        let errorQuery = try error.query()
        #expect(try errorQuery.single("error") == "login_required")
        #expect(try errorQuery.single("state") == "st-123" && errorQuery.single("iss") == env.server.issuer)

        env.server.clock.advance(by: 30)
        let pkce = PKCEPair.generate()
        let stepUp = try await browser.open(env.authorizeURL(pkce: pkce, extra: [("acr_values", "urn:example:unknown \(Self.mfa)")]))
        #expect(stepUp.status == 200 && stepUp.url.path == Routes.secondFactor, "\(stepUp)")
        let code = try SecondFactorSupport.pyotp(secretOrURI: enrolled.secret, at: env.server.clock.now)
        let passed = try await browser.submit(formWithAction: Routes.secondFactor, fields: ["code": code])
        let query = try passed.requireRedirect().query()
        let claims = try await SecondFactorSupport.tokenClaims(env, code: try query.single("code"), pkce: pkce)
        #expect(claims.id["acr"] == .string(Self.mfa) && claims.id["amr"] == .array(["pwd", "otp", "mfa"]))
        // A new session (no fixation), and it now meets mfa without a page.
        #expect(Interactive.sessionCookie(browser)?.value != before)
        let silent = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("acr_values", Self.mfa), ("prompt", "none")]))
        #expect(try silent.requireRedirect().query().contains("code"))
        // phr cannot be met by a password and a code: prompt=none says login_required.
        let phr = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("acr_values", "urn:signet:acr:phr"), ("prompt", "none")]))
        #expect(try phr.requireRedirect().query().single("error") == "login_required")
    }

    /// Without acr_values a password sign-in says `pwd`; `max_age=0` sends a signed-in browser
    /// back to the sign-in page, and the new token's auth_time is the new sign-in's.
    @Test func maxAgeZeroForcesReauthentication() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let browser = FormBrowser()
        let firstPKCE = PKCEPair.generate()
        let first = try await env.signIn(browser, pkce: firstPKCE)
        let firstClaims = try await SecondFactorSupport.tokenClaims(env, code: try first.query().single("code"), pkce: firstPKCE)
        #expect(firstClaims.id["acr"] == .string("urn:signet:acr:pwd"))
        let firstAuth = try #require(firstClaims.id["auth_time"]?.intValue)
        env.server.clock.advance(by: 5)
        let again = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("max_age", "0")]))
        #expect(again.status == 200 && again.url.path == Routes.signIn, "\(again)")
        let pkce = PKCEPair.generate()
        _ = try await browser.open(env.authorizeURL(pkce: pkce, extra: [("max_age", "0")]))
        let target = try await env.submitCredentials(browser).requireRedirect()
        let claims = try await SecondFactorSupport.tokenClaims(env, code: try target.query().single("code"), pkce: pkce)
        #expect(claims.id["auth_time"]?.intValue == firstAuth + 5)
        // prompt=none with max_age=0: login_required.
        env.server.clock.advance(by: 1)
        let none = try await browser.open(env.authorizeURL(pkce: .generate(), extra: [("max_age", "0"), ("prompt", "none")]))
        #expect(try none.requireRedirect().query().single("error") == "login_required")
    }

    /// Discovery lists the acr values and the acr claim; a repeated acr_values is refused.
    @Test func discoveryListsTheACRValuesAndRepeatsAreRefused() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let metadata = try await HTTPTestClient().get(env.server.url(Routes.openIDConfiguration)).json().objectValue ?? [:]
        #expect(metadata["acr_values_supported"] == .array(["urn:signet:acr:pwd", "urn:signet:acr:mfa", "urn:signet:acr:phr"]))
        #expect(metadata["claims_supported"]?.arrayValue?.contains(.string("acr")) == true)
        var url = URLComponents(url: env.authorizeURL(pkce: .generate(), extra: [("acr_values", Self.mfa)]), resolvingAgainstBaseURL: false)
        url?.queryItems?.append(URLQueryItem(name: "acr_values", value: Self.mfa))
        let repeated = try await HTTPTestClient().get(try #require(url?.url))
        #expect(repeated.status == 303)
        let query = try #require(repeated.redirect).query()
        #expect(try query.single("error") == "invalid_request" && query.single("iss") == env.server.issuer)
    }

    /// Removing the factor needs the password and a current code; then sign-in asks for no code.
    @Test func removingTheFactorNeedsReauthentication() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let enrolled = try await SecondFactorSupport.enrol(env)
        let browser = enrolled.browser
        _ = try await browser.open(env.server.url(Routes.accountTOTP))
        env.server.clock.advance(by: 30)
        let code = try SecondFactorSupport.pyotp(secretOrURI: enrolled.secret, at: env.server.clock.now)
        let wrongPassword = try await browser.submit(formWithAction: Routes.accountTOTP,
                                                     fields: ["password": "not it", "code": code, "action": "remove"])
        #expect(wrongPassword.url.query?.contains("error=reauth") == true, "\(wrongPassword)")
        #expect(try env.server.environment.storage.secondFactors.totpFactor(userID: env.user.id)?.isConfirmed == true)
        let removed = try await browser.submit(formWithAction: Routes.accountTOTP,
                                               fields: ["password": Interactive.password, "code": code, "action": "remove"])
        #expect(removed.status == 200 && removed.url.query?.contains("removed=1") == true, "\(removed)")
        // Gone (the page after removal offers a new, unconfirmed setup).
        #expect(try env.server.environment.storage.secondFactors.totpFactor(userID: env.user.id)?.isConfirmed != true)
        #expect(try env.server.environment.storage.secondFactors.unusedRecoveryCodes(userID: env.user.id) == 0)
        let target = try await env.signIn(FormBrowser(), pkce: .generate())
        #expect(target.base == Interactive.callback)
    }

    /// The factor is Signet's, so a federated sign-in of a user who has one asks for it too:
    /// `amr` fed otp mfa.
    @Test func aFederatedSignInAsksForTheSecondFactorToo() async throws {
        let fed = try Federated(.google, user: MockUser(email: "fresh@example.org"))
        defer { fed.stop() }
        let firstPKCE = PKCEPair.generate()
        let first = try await fed.redeem(try await fed.signIn(fed.browser(), pkce: firstPKCE), pkce: firstPKCE)
        #expect(first["amr"] == .array(["fed"]) && first["acr"] == .string("urn:signet:acr:pwd"))
        let userID = try #require(first["sub"]?.stringValue)
        let server = fed.server
        let service = SecondFactorService(server: server.application.authorizationServer, key: server.environment.masterKey.secondFactorKey)
        let totp = try #require(try service.enrolment(userID: userID))
        _ = try service.confirm(userID: userID, code: totp.code(step: TOTP.step(at: server.clock.now))).get()
        server.clock.advance(by: 30)

        let browser = fed.browser()
        let pkce = PKCEPair.generate()
        let codePage = try await fed.signIn(browser, pkce: pkce)
        #expect(codePage.status == 200 && codePage.url.path == Routes.secondFactor, "\(codePage)")
        let passed = try await browser.submit(formWithAction: Routes.secondFactor,
                                              fields: ["code": totp.code(step: TOTP.step(at: server.clock.now))])
        let claims = try await fed.redeem(passed, pkce: pkce)
        #expect(claims["amr"] == .array(["fed", "otp", "mfa"]) && claims["acr"] == .string(Self.mfa))
    }

    /// Without a session the account page asks for a sign-in; a forged POST changes nothing.
    @Test func theAccountPageNeedsASessionAndItsCSRFField() async throws {
        let env = try Interactive()
        defer { env.stop() }
        let page = try await HTTPTestClient().get(env.server.url(Routes.accountTOTP))
        #expect(page.status == 401)
        expectHardened(page)
        let enrolled = try await SecondFactorSupport.enrol(env)
        _ = try await enrolled.browser.open(env.server.url(Routes.accountTOTP))
        let forged = try await enrolled.browser.submit(formWithAction: Routes.accountTOTP,
                                                       fields: ["csrf": "forged", "password": Interactive.password, "action": "remove"])
        #expect(forged.status == 403)
        #expect(try env.server.environment.storage.secondFactors.totpFactor(userID: env.user.id)?.isConfirmed == true)
    }
}
