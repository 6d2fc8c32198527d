import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import SignetWebAuthn
import SignetWire
import Testing

/// Adding a passkey needs a fresh sign-in at the account's level (`FreshSignIn`: within five
/// minutes, with the second factor when the account has one), on the web and from a native app,
/// and mails the owner; over real HTTP with a software authenticator and a real SMTP sink.
@Suite("Passkey registration needs a fresh sign-in", .serialized, .endToEndLimit,
       .enabled(if: RealPart.aiosmtpd.canRun, RealPart.aiosmtpd.skipComment))
struct PasskeyFreshSignInTests {
    /// The passkey fixture with mail to a real sink.
    static func start() async throws -> (fixture: PasskeyFixture, sink: MailSink) {
        let sink = try await MailSink.start()
        let fixture = try await PasskeyFixture { configuration in
            configuration.mail.smtpURL = sink.url
            configuration.mail.from = "id@example.test"
            configuration.branding.productName = "Example ID"
        }
        return (fixture, sink)
    }

    /// Turns on TOTP for Alice in the store (as the account page would), so her level is multi-factor.
    static func enrolTOTP(_ fixture: PasskeyFixture) throws {
        let environment = fixture.server.environment
        let service = SecondFactorService(server: fixture.server.application.authorizationServer,
                                          key: environment.masterKey.secondFactorKey)
        let totp = try #require(try service.enrolment(userID: fixture.env.user.id))
        let code = totp.code(step: TOTP.step(at: fixture.server.clock.now))
        guard case .success = try service.confirm(userID: fixture.env.user.id, code: code) else {
            Issue.record("the enrolment was not confirmed")
            return
        }
    }

    /// The passkey-added mail: to Alice, naming the product, with the link to the passkeys page.
    static func expectPasskeyMail(_ mail: MailSink.Message.Parsed, _ fixture: PasskeyFixture, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(mail.to == Interactive.email, sourceLocation: sourceLocation)
        #expect(mail.subject == "A passkey was added to your Example ID account", sourceLocation: sourceLocation)
        #expect(mail.text?.contains("Review your passkeys: \(fixture.server.issuer)\(Routes.accountPasskeys)") == true, "\(mail.text ?? "")",
                sourceLocation: sourceLocation)
    }

    @Test func aStaleSessionIsSentToSignInAgainThenAddsThePasskeyAndTheOwnerIsMailed() async throws {
        let (fixture, sink) = try await Self.start()
        defer { fixture.stop(); Task { await sink.stop() } }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        let csrf = try await fixture.registrationCSRF()
        // Six minutes later (a session cookie copied since): no options, no "Add" on the page.
        fixture.server.clock.advance(by: 6 * 60)
        let refused = try await fixture.client(fixture.browser).post(fixture.server.url(Routes.passkeyRegisterOptions), form: [("csrf", csrf)])
        expectPasskeyError(refused, "login_required", "needs a sign-in in the last 5 minutes")
        let page = try await fixture.client(fixture.browser).get(fixture.server.url(Routes.accountPasskeys))
        #expect(page.status == 200 && !page.text.contains("data-mode=\"register\""))
        #expect(page.text.contains("Adding a passkey needs a recent sign-in: in the last 5 minutes"))
        #expect(page.text.contains("href=\"\(Routes.accountReauth)?next=passkeys\""))

        // The page's link: `prompt=login`, the password again, back to the passkeys page.
        let signIn = try await fixture.browser.open(fixture.server.url(Routes.accountReauth, query: [("next", "passkeys")]))
        #expect(signIn.url.path == Routes.signIn)
        let back = try await fixture.env.submitCredentials(fixture.browser)
        #expect(back.url.path == Routes.accountPasskeys, "\(back.url)")
        #expect(back.response.text.contains("data-mode=\"register\""))
        try await fixture.register(device)
        #expect(try fixture.passkeys().map(\.id) == [device.credentialID])
        let mails = try await sink.waitForMessages(1)
        Self.expectPasskeyMail(try mails[0].parsed(), fixture)
        // The refused attempt mailed nothing: one passkey, one mail.
        try await Task.sleep(for: .milliseconds(300))
        #expect(sink.messages().count == 1)
    }

    @Test func aFreshSessionBelowTheAccountsLevelCannotAddAPasskey() async throws {
        let (fixture, sink) = try await Self.start()
        defer { fixture.stop(); Task { await sink.stop() } }
        let csrf = try await fixture.registrationCSRF()
        // Alice turns on TOTP; the browser's session has the password only (amr ["pwd"]).
        try Self.enrolTOTP(fixture)
        let refused = try await fixture.client(fixture.browser).post(fixture.server.url(Routes.passkeyRegisterOptions), form: [("csrf", csrf)])
        expectPasskeyError(refused, "login_required", "at the account's level")
        #expect(try fixture.passkeys().isEmpty)
        let page = try await fixture.client(fixture.browser).get(fixture.server.url(Routes.accountPasskeys))
        #expect(!page.text.contains("data-mode=\"register\"") && page.text.contains("?next=passkeys"))
    }

    @Test func aNativeAppNeedsAFreshTokenAtTheAccountsLevel() async throws {
        let (fixture, sink) = try await Self.start()
        defer { fixture.stop(); Task { await sink.stop() } }
        let client = HTTPTestClient()
        func options(_ token: String) async throws -> TestResponse {
            try await client.send(method: "POST", url: fixture.server.url(Routes.passkeyNativeRegisterOptions), body: [],
                                  headers: ["Authorization": "Bearer \(token)"])
        }
        let stale = try await PasskeyNativeRegistrationTests.accessToken(fixture, scope: "openid \(Scope.passkeysWrite)")
        fixture.server.clock.advance(by: 6 * 60)
        // RFC 9470 §3: 401 insufficient_user_authentication, the challenge naming max_age.
        let refused = try await options(stale)
        #expect(refused.status == 401, "\(refused)")
        #expect(try refused.json()["error"] == "insufficient_user_authentication")
        #expect(refused.header("Cache-Control") == "no-store")
        let challenge = try #require(refused.header("WWW-Authenticate"))
        #expect(challenge.hasPrefix(#"Bearer realm="signet", error="insufficient_user_authentication""#) && challenge.hasSuffix(#"max_age="300""#),
                "\(challenge)")
        #expect(!challenge.contains("acr_values"))

        // A new sign-in: options, and the registration mails the owner.
        let fresh = try await PasskeyNativeRegistrationTests.accessToken(fixture, scope: "openid \(Scope.passkeysWrite)")
        let started = try await options(fresh)
        #expect(started.status == 200, "\(started)")
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin, backupEligible: true)
        let publicKey = try #require(try started.json()["publicKey"])
        let finished = try await client.send(method: "POST", url: fixture.server.url(Routes.passkeyNativeRegisterFinish),
                                             body: device.register(publicKey),
                                             headers: ["Content-Type": "application/json", "Authorization": "Bearer \(fresh)"])
        #expect(finished.status == 200, "\(finished)")
        Self.expectPasskeyMail(try await sink.waitForMessages(1)[0].parsed(), fixture)

        // Alice turns on TOTP: a fresh password-only token is below her level (acr_values names mfa).
        try Self.enrolTOTP(fixture)
        let belowLevel = try await options(fresh)
        #expect(belowLevel.status == 401, "\(belowLevel)")
        #expect(belowLevel.header("WWW-Authenticate")?.contains(#"acr_values="urn:signet:acr:mfa", max_age="300""#) == true)
        #expect(try fixture.passkeys().count == 1)
    }

    @Test func theResetKeepsPasskeysAndListsThemOrRemovesThemWhenAsked() async throws {
        let (fixture, sink) = try await Self.start()
        defer { fixture.stop(); Task { await sink.stop() } }
        // Confirmed: a reset of an account nobody confirmed claims it, passkeys and all (UnconfirmedAccountClaim).
        let alice = fixture.env.user
        try fixture.server.environment.storage.users.updateProfile(userID: alice.id, name: alice.name, givenName: nil, familyName: nil,
                                                                   emailVerified: true, now: fixture.server.clock.now)
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        _ = try await sink.waitForMessages(1)
        for remove in [false, true] {
            let browser = FormBrowser()
            let signInPage = try await browser.open(fixture.env.authorizeURL(pkce: .generate()))
            let handle = try #require(URLComponents(url: signInPage.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "request" }?.value)
            let forgot = try await browser.open(fixture.server.url(Routes.passwordForgot, query: [("request", handle)]))
            #expect(forgot.status == 200)
            let sent = try await browser.submit(formWithAction: Routes.passwordForgot, fields: ["email": Interactive.email])
            #expect(sent.url.path == Routes.emailCode, "\(sent.url)")
            // The form before the code is proven offers the box but names no passkey.
            #expect(sent.response.text.contains("name=\"remove_passkeys\"") && !sent.response.text.contains("Security key"))
            let mails = try await sink.waitForMessages(remove ? 3 : 2)
            let code = try #require(Accounts.codeIfAny(in: try mails[mails.count - 1].parsed()))
            var fields = ["code": code, "password": "a brand new passphrase"]
            if remove { fields["remove_passkeys"] = "1" }
            let done = try await browser.submit(formWithAction: Routes.emailCode, fields: fields)
            #expect(done.status == 200, "\(done.response)")
            if remove {
                #expect(done.response.text.contains("Every passkey of this account was removed."))
                #expect(try fixture.passkeys().isEmpty)
            } else {
                #expect(done.response.text.contains("Your passkeys were kept and still sign in."))
                #expect(done.response.text.contains("<li>Security key · Added"))
                #expect(try fixture.passkeys().count == 1)
            }
        }
    }
}
