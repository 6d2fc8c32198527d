import Foundation
import SignetCore
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// An organization invitation by real mail (the SMTP sink) to a membership in headless Chromium:
/// the link opened from the mail, the sign-up through the invitation with the address fixed, the
/// welcome page, the account page signed in. With SIGNET_SCREENSHOTS the invitation page is kept
/// at 390 and 1280 px (docs/images/invitation-*.png).
@Suite("an invitation in a real browser", .serialized, .endToEndLimit) struct InvitationBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/invitation.py").path

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func anInvitationByMailBecomesAMembershipInChromium() async throws {
        try RealPart.chromium.use()
        // Sign-up is off: the invitation is the permission.
        let accounts = try await Accounts.start { $0.accounts.signUp = .off }
        defer { Task { await accounts.stop() } }
        let environment = accounts.server.environment
        let organizations = environment.makeOrganizations()
        let acme = try organizations.create(slug: "acme", name: "Acme Corp")
        let mailer = InvitationMailer(environment: environment)
        let invitation = try organizations.invite(acme, email: "Nia@Example.com", role: "admin", actor: "test", mail: mailer.mail(for: acme))
        mailer.notify()
        let home = try TemporaryDirectory(prefix: "invitation")
        defer { home.remove() }
        let logFile = home.appending("browser.log")
        var variables = [
            "SIGNET_MAIL_DIR": accounts.sink.folder, "SIGNET_PASSWORD": "nia's fine passphrase", "SIGNET_NAME": "Nia",
            "SIGNET_TEST_LOG": logFile, "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
        if let shots = ProcessInfo.processInfo.environment["SIGNET_SCREENSHOTS"] { variables["SIGNET_SCREENSHOTS"] = shots }
        let outcome = try await Subprocess.run(PackagePaths.python, [Self.script], environment: variables, timeoutSeconds: 180)
        let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
        #expect(outcome.succeeded, "stderr: \(outcome.stderr)\nbrowser: \(browserLog)")
        let last = outcome.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let result = try #require(try JSONValue.parse(Array(last.utf8), maximumDepth: 8).objectValue, "stdout: \(outcome.stdout)")
        #expect(result["error"] == nil, "browser: \(browserLog)")
        #expect(result["to"]?.stringValue?.contains("nia@example.com") == true)
        #expect(result["subject"]?.stringValue == "You are invited to Acme Corp on Example ID")
        #expect(result["title"]?.stringValue?.hasPrefix("Join Acme Corp") == true)
        #expect(result["address"] == "nia@example.com" && result["addressReadOnly"] == .bool(true))
        #expect(result["scripts"] == .int(0))
        #expect(result["phoneOverflow"] == .int(0))
        #expect(result["notice"]?.stringValue == "You are now a member of Acme Corp as admin.")
        #expect(result["acceptedTitle"]?.stringValue?.hasPrefix("Welcome to Acme Corp") == true)
        #expect(result["account"]?.stringValue?.hasSuffix(Routes.account) == true)
        let nia = try #require(try environment.storage.users.user(email: "nia@example.com"))
        #expect(nia.emailVerified && nia.name == "Nia")
        #expect(try environment.storage.organizations.membership(organizationID: acme.id, userID: nia.id)?.roles == ["admin"])
        #expect(try environment.storage.organizations.invitation(id: invitation.id)?.acceptedBy == nia.id)
    }
}
