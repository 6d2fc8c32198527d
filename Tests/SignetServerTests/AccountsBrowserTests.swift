import Foundation
import SignetClientCore
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// A new user in headless Chromium: sign-up → the mailed code → sign-in → forgot password → the
/// mailed link → a new password, with the mail read from the real SMTP sink. With
/// SIGNET_SCREENSHOTS set, each page is saved at 390 px and desktop width (docs/images).
@Suite("accounts in a real browser", .serialized, .endToEndLimit) struct AccountsBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/accounts_flow.py").path

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func signUpVerifySignInForgotReset() async throws {
        try RealPart.chromium.use()
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let home = try TemporaryDirectory(prefix: "browser")
        defer { home.remove() }
        let pkces = [PKCEPair.generate(), PKCEPair.generate(), PKCEPair.generate()]
        let starts = pkces.enumerated().map { index, pkce in
            accounts.app.authorizeURL(pkce: pkce, extra: index == 0 ? [] : [("prompt", "login")]).absoluteString
        }
        let logFile = home.appending("browser.log")
        var environment = [
            "SIGNET_START_URLS": starts.joined(separator: " "), "SIGNET_REDIRECT_PREFIX": Interactive.callback,
            "SIGNET_MAIL_DIR": accounts.sink.folder, "SIGNET_EMAIL": "new.person@example.com",
            "SIGNET_PASSWORD": "my first passphrase", "SIGNET_NEW_PASSWORD": "my second passphrase",
            "SIGNET_TOKEN_URL": accounts.server.url(Routes.token).absoluteString, "SIGNET_REDIRECT_URI": Interactive.callback,
            "SIGNET_CODE_VERIFIERS": pkces.map(\.verifier).joined(separator: " "),
            "SIGNET_TEST_LOG": logFile, "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
        if let shots = ProcessInfo.processInfo.environment["SIGNET_SCREENSHOTS"] { environment["SIGNET_SCREENSHOTS"] = shots }
        let outcome = try await Subprocess.run(PackagePaths.python, [Self.script], environment: environment, timeoutSeconds: 180)
        let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
        #expect(outcome.succeeded, "stderr: \(outcome.stderr)\nbrowser: \(browserLog)")
        let last = outcome.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let result = try #require(try JSONValue.parse(Array(last.utf8), maximumDepth: 8).objectValue, "stdout: \(outcome.stdout)")
        #expect(result["error"] == nil, "browser: \(browserLog)")
        #expect(result["resetDone"] == .bool(true))

        // The app redeemed the code of each redirect at once: the new, confirmed account.
        let user = try #require(try accounts.server.environment.storage.users.user(email: "new.person@example.com"))
        #expect(user.emailVerified && user.name == "New Person")
        let tokens = result["tokens"]?.arrayValue ?? []
        try #require(tokens.count == 2)
        for token in tokens {
            #expect(token["status"] == .int(200), "\(token)")
            let idToken = try #require(token["body"]?["id_token"]?.stringValue)
            let claims = try #require(try JSONValue.parse(Base64URL.decode(String(idToken.split(separator: ".")[1])) ?? []).objectValue)
            #expect(claims["sub"]?.stringValue == user.id && claims["email_verified"] == .bool(true))
        }
        // The reset revoked the grants those codes started.
        let refresh = try #require(tokens[1]["body"]?["refresh_token"]?.stringValue)
        let refreshed = try await HTTPTestClient().post(accounts.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native")])
        #expect(refreshed.status == 400)
        let users = accounts.server.environment.makeUserService()
        #expect(try users.authenticate(email: "new.person@example.com", password: "my first passphrase") == nil)
        #expect(try users.authenticate(email: "new.person@example.com", password: "my second passphrase") != nil)
    }
}
