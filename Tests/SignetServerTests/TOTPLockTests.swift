import Foundation
import SignetCore
import SignetCrypto
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// `mfa.lock_after` wrong codes in a row lock the authenticator app (NIST SP 800-63B §5.2.2),
/// over real HTTP with pyotp's codes and a real SMTP sink: the lock refuses even the right code,
/// the owner is mailed once, a recovery code signs in and unlocks, and so does an operator
/// through the admin API.
@Suite("TOTP lock after wrong codes in a row", .serialized, .endToEndLimit,
       .enabled(if: RealPart.aiosmtpd.canRun, RealPart.aiosmtpd.skipComment))
struct TOTPLockTests {
    static let lockAfter = 3

    static func start() async throws -> (env: Interactive, sink: MailSink) {
        let sink = try await MailSink.start()
        let env = try Interactive(adminListener: true) { configuration in
            configuration.mail.smtpURL = sink.url
            configuration.mail.from = "id@example.test"
            configuration.branding.productName = "Example ID"
            configuration.mfa.lockAfter = lockAfter
            configuration.mfa.attemptLimit = 100   // the lock, not the window, is under test
        }
        return (env, sink)
    }

    /// Alice's confirmed factor (set up in the store, as the account page does): its base32 secret
    /// for pyotp and the recovery codes.
    static func enrol(_ env: Interactive) throws -> (secret: String, recoveryCodes: [String]) {
        let service = SecondFactorService(server: env.server.application.authorizationServer,
                                          key: env.server.environment.masterKey.secondFactorKey)
        let totp = try #require(try service.enrolment(userID: env.user.id))
        guard case .success(let codes) = try service.confirm(userID: env.user.id, code: totp.code(step: TOTP.step(at: env.server.clock.now))) else {
            throw TestingError("the enrolment was not confirmed")
        }
        env.server.clock.advance(by: 30)   // the confirming code's step is used up
        return (Base32.encode(totp.secret), codes)
    }

    /// A fresh browser that gave Alice's password and stands on the second-factor page.
    static func atSecondFactor(_ env: Interactive) async throws -> FormBrowser {
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(pkce: .generate()))
        let page = try await env.submitCredentials(browser)
        try #require(page.url.path == Routes.secondFactor, "\(page.url)")
        return browser
    }

    /// A six-digit code that is not the right one now (nor in the window around it).
    static func wrongCode(_ secret: String, _ env: Interactive) throws -> String {
        let right = try (-1...1).map { try SecondFactorSupport.pyotp(secretOrURI: secret, at: env.server.clock.now.addingTimeInterval(Double($0) * 30)) }
        return ["000000", "111111", "222222", "333333"].first { !right.contains($0) } ?? "444444"
    }

    static func type(_ code: String, _ browser: FormBrowser) async throws -> BrowserOutcome {
        try await browser.submit(formWithAction: Routes.secondFactor, fields: ["code": code])
    }

    /// Three wrong codes: the first two say "did not work", the third locks.
    static func lock(_ env: Interactive, secret: String, browser: FormBrowser) async throws {
        let wrong = try wrongCode(secret, env)
        for attempt in 1...lockAfter {
            let page = try await type(wrong, browser)
            #expect(page.url.path == Routes.secondFactor)
            let locked = page.url.query?.contains("error=locked") == true
            #expect(locked == (attempt == lockAfter), "attempt \(attempt): \(page.url)")
        }
    }

    func factor(_ env: Interactive) throws -> TOTPFactorRecord? { try env.server.environment.storage.secondFactors.totpFactor(userID: env.user.id) }

    @Test func theFactorLocksRefusesTheRightCodeMailsTheOwnerAndARecoveryCodeUnlocksIt() async throws {
        let (env, sink) = try await Self.start()
        defer { env.stop(); Task { await sink.stop() } }
        let (secret, recoveryCodes) = try Self.enrol(env)
        let browser = try await Self.atSecondFactor(env)
        try await Self.lock(env, secret: secret, browser: browser)
        #expect(try factor(env)?.isLocked == true)
        let mail = try await sink.waitForMessages(1)[0].parsed()
        #expect(mail.to == Interactive.email && mail.subject == "The authenticator app of your Example ID account was locked")
        #expect(mail.text?.contains("After 3 wrong codes in a row") == true && Accounts.codeIfAny(in: mail) == nil)

        // Locked: the right code is refused too, and no session is made.
        let right = try SecondFactorSupport.pyotp(secretOrURI: secret, at: env.server.clock.now)
        let refused = try await Self.type(right, browser)
        #expect(refused.url.query?.contains("error=locked") == true && refused.response.text.contains("Enter one of your recovery codes"))
        #expect(Interactive.sessionCookie(browser) == nil)
        // Further wrong codes do not mail again.
        _ = try await Self.type(try Self.wrongCode(secret, env), browser)

        // A recovery code signs in and unlocks.
        let signedIn = try await Self.type(recoveryCodes[0], browser)
        #expect(try signedIn.requireRedirect()["code"] != nil)
        #expect(try factor(env).map { !$0.isLocked && $0.failedAttempts == 0 } == true)
        let events = try env.server.environment.storage.audit.recentAudit(limit: 200).map(\.event)
        #expect(events.filter { $0 == "totp_locked" }.count == 1 && events.contains("totp_unlocked") && events.contains("second_factor_locked_refused"))
        // The app's codes work again.
        env.server.clock.advance(by: 30)
        let next = try await Self.atSecondFactor(env)
        let again = try await Self.type(try SecondFactorSupport.pyotp(secretOrURI: secret, at: env.server.clock.now), next)
        #expect(try again.requireRedirect()["code"] != nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(sink.messages().count == 1)
    }

    @Test func anOperatorUnlocksItThroughTheAdminAPI() async throws {
        let (env, sink) = try await Self.start()
        defer { env.stop(); Task { await sink.stop() } }
        let (secret, _) = try Self.enrol(env)
        try await Self.lock(env, secret: secret, browser: try await Self.atSecondFactor(env))
        let admin = try AdminFixture(server: env.server)
        let token = try await admin.token()
        let path = "/admin/v1/users/\(env.user.id)/unlock-totp"
        let unlocked = try await admin.call("POST", path, token: token)
        #expect(unlocked.status == 200, "\(unlocked)")
        #expect(try unlocked.json()["unlocked"] == .bool(true))
        #expect(try await admin.call("POST", path, token: token).json()["unlocked"] == .bool(false))
        // Read-only scopes may not unlock.
        let viewer = try await admin.token(["admin:users:read"])
        #expect(try await admin.call("POST", path, token: viewer).status == 403)
        let browser = try await Self.atSecondFactor(env)
        let signedIn = try await Self.type(try SecondFactorSupport.pyotp(secretOrURI: secret, at: env.server.clock.now), browser)
        #expect(try signedIn.requireRedirect()["code"] != nil)
        let unlockEvent = try #require(try env.server.environment.storage.audit.recentAudit(limit: 200).first { $0.event == "totp_unlocked" })
        #expect(unlockEvent.actor == "ops" && unlockEvent.subjectID == env.user.id)
    }
}
