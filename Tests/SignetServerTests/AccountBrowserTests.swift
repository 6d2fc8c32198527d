import Foundation
import SignetCore
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// The account page in a real browser (headless Chromium over WebDriver): the sign-in that
/// /account starts, a name change, ending another session and deleting the account, with
/// screenshots at 390 px and 1280 px.
@Suite("the account page in a real browser", .serialized, .endToEndLimit) struct AccountBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/account_page.py").path

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func nameChangeSessionEndAndDeletionInChromium() async throws {
        try RealPart.chromium.use()
        let env = try Interactive()
        defer { env.stop() }
        // Another browser's session, for the page to end.
        let other = FormBrowser()
        _ = try await other.open(env.server.url(Routes.account))
        _ = try await env.submitCredentials(other)
        let home = try TemporaryDirectory(prefix: "account-browser")
        defer { home.remove() }
        let shots = ProcessInfo.processInfo.environment["SIGNET_SCREENSHOTS"] ?? home.appending("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let logFile = home.appending("browser.log")
        let environment = [
            "SIGNET_START_URL": env.server.url(Routes.account).absoluteString, "SIGNET_EMAIL": Interactive.email,
            "SIGNET_PASSWORD": Interactive.password, "SIGNET_NEW_NAME": "Ada Lovelace", "SIGNET_SCREENSHOTS": shots,
            "SIGNET_TEST_LOG": logFile, "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
        let outcome = try await Subprocess.run(PackagePaths.python, [Self.script], environment: environment, timeoutSeconds: 120)
        let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
        #expect(outcome.succeeded, "stderr: \(outcome.stderr)\nbrowser: \(browserLog)")
        let last = outcome.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let result = try #require(try JSONValue.parse(Array(last.utf8), maximumDepth: 4).objectValue, "stdout: \(outcome.stdout)")
        #expect(result["error"] == nil, "browser: \(browserLog)")
        #expect(result["signInPath"]?.stringValue?.hasSuffix(Routes.signIn) == true)
        #expect(result["accountPath"]?.stringValue?.hasSuffix(Routes.account) == true)
        #expect(result["nameNotice"]?.stringValue == AccountPageTextForTests.nameSaved)
        #expect(result["sessionNotice"]?.stringValue == AccountPageTextForTests.sessionEnded)
        #expect(result["sessionFormsLeft"] == .int(0))
        #expect(result["deletedTitle"]?.stringValue?.hasPrefix("Account deleted") == true)
        #expect(result["sessionCookie"] == .bool(false))
        #expect(try env.server.environment.storage.users.user(id: env.user.id) == nil)
        #expect(try await other.open(env.server.url(Routes.account)).url.path == Routes.signIn)
        for name in ["account-phone.png", "account-desktop.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: shots + "/" + name)[.size] as? Int) ?? 0
            #expect(size > 10_000, "\(name)")
        }
    }
}

/// The English notices the browser test reads (AccountPageText is internal to SignetServer).
enum AccountPageTextForTests {
    static let nameSaved = "Your name was saved."
    static let sessionEnded = "The session was ended."
}
