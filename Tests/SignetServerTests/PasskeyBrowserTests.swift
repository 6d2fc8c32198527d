import Foundation
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Passkeys in headless Chromium with the WebDriver virtual authenticator
/// (Tests/SignetServerTests/Browser/passkeys.py): register from the offer after a password
/// sign-in, sign in with the button and with conditional UI, rename and remove on
/// /account/passkeys, and a second authenticator whose passkey Signet never registered refused.
@Suite("passkeys in a real browser", .serialized, .endToEndLimit) struct PasskeyBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/passkeys.py").path

    func claims(_ env: Interactive, code: String?, pkce: PKCEPair) async throws -> [String: JSONValue] {
        let tokens = try await env.redeem(code: try #require(code), pkce: pkce)
        #expect(tokens.status == 200, "\(tokens)")
        let idToken = try #require(try tokens.json()["id_token"]?.stringValue)
        return try #require(try JSONValue.parse(Base64URL.decode(idToken.split(separator: ".")[1]) ?? []).objectValue)
    }

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func registerSignInConditionalRenameRemoveAndAnUnregisteredAuthenticator() async throws {
        try RealPart.chromium.use()
        // http://localhost is a secure context and a valid RP ID; 127.0.0.1 is not an RP ID.
        let env = try Interactive { $0.issuer = $0.issuer.replacingOccurrences(of: "127.0.0.1", with: "localhost") }
        defer { env.stop() }
        #expect(env.server.issuer.hasPrefix("http://localhost:"))
        let home = try TemporaryDirectory(prefix: "passkey-browser")
        defer { home.remove() }
        let pkces = (0..<5).map { _ in PKCEPair.generate() }
        let base = env.server.baseURL.absoluteString
        let urls = pkces.map { env.authorizeURL(pkce: $0).absoluteString.replacingOccurrences(of: base, with: env.server.issuer) }
        let logFile = home.appending("browser.log")
        var environment = [
            "SIGNET_AUTHORIZE_URLS": String(decoding: JSONValue.array(urls.map { .string($0) }).serialized(), as: UTF8.self),
            "SIGNET_ISSUER": env.server.issuer, "SIGNET_REDIRECT_PREFIX": Interactive.callback,
            "SIGNET_EMAIL": Interactive.email, "SIGNET_PASSWORD": Interactive.password, "SIGNET_TEST_LOG": logFile,
            "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
        if let shots = ProcessInfo.processInfo.environment["SIGNET_SCREENSHOTS"] { environment["SIGNET_SCREENSHOTS"] = shots }
        let outcome = try await Subprocess.run(PackagePaths.python, [Self.script], environment: environment, timeoutSeconds: 150)
        let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
        #expect(outcome.succeeded, "stderr: \(outcome.stderr)\nbrowser: \(browserLog)")
        let last = outcome.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let result = try #require(try JSONValue.parse(Array(last.utf8), maximumDepth: 8).objectValue, "stdout: \(outcome.stdout)")
        #expect(result["error"] == nil, "browser: \(browserLog)\nresult: \(result)")

        // 1. The offer was shown (the virtual authenticator is a platform authenticator) and added one passkey.
        #expect(result["platformAuthenticator"] == .bool(true))
        #expect(result["offerShown"] == .bool(true))
        #expect(result["credentialsAfterRegistration"] == .int(1))
        #expect(try await claims(env, code: result["passwordCode"]?.stringValue, pkce: pkces[0])["amr"] == .array(["pwd"]))
        // 2. Signed in with it: a device-bound credential (Chromium's virtual authenticator sets no BE).
        #expect(try await claims(env, code: result["passkeyCode"]?.stringValue, pkce: pkces[1])["amr"] == .array(["hwk", "user"]))
        // 3. Conditional UI: Chromium's virtual authenticator completes the page's conditional request
        //    (the email field's autofill) by itself, with the one discoverable credential it holds.
        #expect(result["conditionalAvailable"] != .bool(false))
        #expect(try await claims(env, code: result["conditionalCode"]?.stringValue, pkce: pkces[2])["amr"] == .array(["hwk", "user"]))
        // 4. Renamed and removed.
        #expect(result["renamed"] == "Test laptop")
        #expect(result["removed"] == .bool(true))
        #expect(try env.server.environment.storage.passkeys.passkeys(userID: env.user.id).isEmpty)
        // 5. Refused, and the page says why.
        #expect(result["unregisteredStatus"]?.stringValue?.contains("not registered here") == true)
        #expect(result["unregisteredPage"]?.stringValue?.hasSuffix("/signin") == true)
    }
}
