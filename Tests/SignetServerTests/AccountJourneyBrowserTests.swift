import Foundation
import SignetCore
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// One person's whole account life in headless Chromium, with the mail read from the real SMTP
/// sink: sign-up from the page /account leads to, the mailed code, a password sign-in, a new
/// name, a new email (its code mailed there, a notice to the old address), deletion on the page,
/// and a sign-in that fails afterwards. With SIGNET_SCREENSHOTS each step is kept at 390 px
/// (docs/images/journey-*.png).
@Suite("an account's life in a real browser", .serialized, .endToEndLimit) struct AccountJourneyBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/account_journey.py").path

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func signUpToDeletionInChromium() async throws {
        try RealPart.chromium.use()
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let home = try TemporaryDirectory(prefix: "journey")
        defer { home.remove() }
        let logFile = home.appending("browser.log")
        var environment = [
            "SIGNET_START_URL": accounts.server.url(Routes.account).absoluteString, "SIGNET_MAIL_DIR": accounts.sink.folder,
            "SIGNET_EMAIL": "journey@example.com", "SIGNET_NEW_EMAIL": "journey@bücher.example", "SIGNET_PASSWORD": "a journey passphrase", "SIGNET_NEW_PASSWORD": "a journey passphrase, reset",
            "SIGNET_NAME": "Jo Journey", "SIGNET_TEST_LOG": logFile, "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
        if let shots = ProcessInfo.processInfo.environment["SIGNET_SCREENSHOTS"] { environment["SIGNET_SCREENSHOTS"] = shots }
        let outcome = try await Subprocess.run(PackagePaths.python, [Self.script], environment: environment, timeoutSeconds: 180)
        let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
        #expect(outcome.succeeded, "stderr: \(outcome.stderr)\nbrowser: \(browserLog)")
        let last = outcome.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let result = try #require(try JSONValue.parse(Array(last.utf8), maximumDepth: 8).objectValue, "stdout: \(outcome.stdout)")
        #expect(result["error"] == nil, "browser: \(browserLog)")
        #expect(result["afterVerify"]?.stringValue?.hasSuffix(Routes.account) == true)
        #expect(result["signedIn"]?.stringValue?.hasSuffix(Routes.account) == true)
        #expect(result["signedInAfterReset"]?.stringValue?.hasSuffix(Routes.account) == true)
        #expect(result["nameNotice"]?.stringValue == AccountPageTextForTests.nameSaved)
        #expect(result["emailNotice"]?.stringValue == "Your email address was changed. A notice went to the old address.")
        // The international domain typed in the browser is stored and shown as its A-label.
        #expect(result["shownAddress"]?.stringValue == "journey@xn--bcher-kva.example")
        let mails = result["mails"]?.arrayValue ?? []
        #expect(mails.map { $0["subject"]?.stringValue ?? "" } == [
            "Confirm your email for Example ID", "Reset your Example ID password", "Confirm your new email for Example ID",
            "The email of your Example ID account changed"])
        #expect(mails.map { $0["to"]?.stringValue ?? "" } == [
            "journey@example.com", "journey@example.com", "journey@xn--bcher-kva.example", "journey@example.com"])
        #expect(result["deletedTitle"]?.stringValue?.hasPrefix("Account deleted") == true)
        #expect(result["signInAfter"]?.stringValue == "The email or password is incorrect.")
        #expect(result["signInAfterPath"]?.stringValue?.hasSuffix(Routes.signIn) == true)
        #expect(result["passkeyStatusShown"] == .bool(false), "the passkey autofill's failure showed a message")
        // Nothing of the account is left: no user by either address.
        let users = accounts.server.environment.storage.users
        #expect(try users.user(email: "journey@example.com") == nil)
        #expect(try users.user(email: "journey@xn--bcher-kva.example") == nil)
        #expect(try users.allUsers().map(\.email) == [Interactive.email])
    }
}
