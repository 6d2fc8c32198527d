import Foundation
import SignetServer
import SignetTesting
import Testing

/// The second-factor pages in headless Chromium: setup under `mfa.required` with pyotp, the QR
/// code as Chromium drew it read back by zbarimg, the recovery codes, and a sign-in with one.
/// `SIGNET_SCREENSHOTS=docs/images` keeps the pages' screenshots at 390 px and 1280 px.
@Suite(.endToEndLimit) struct SecondFactorBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/totp_signin.py").path

    @Test(.enabled(if: RealPart.chromium.canRun && RealPart.zbar.canRun && RealPart.pyotp.canRun, RealPart.chromium.skipComment))
    func setupAndSignInInChromium() async throws {
        try RealPart.chromium.use()
        try RealPart.zbar.use()
        try RealPart.pyotp.use()
        let env = try Interactive { $0.mfa.required = true }
        defer { env.stop() }
        let folder = try TemporaryDirectory(prefix: "totp-browser")
        defer { folder.remove() }
        let url = env.authorizeURL(pkce: .generate())
        var environment: [String: String] = [:]
        environment["SIGNET_TEST_EMAIL"] = Interactive.email
        environment["SIGNET_TEST_PASSWORD"] = Interactive.password
        environment["SIGNET_TEST_TIME"] = String(Int64(env.server.clock.now.timeIntervalSince1970))
        let result = try await Subprocess.run(PackagePaths.python, [Self.script, url.absoluteString, Interactive.callback, folder.path],
                                              environment: environment, timeoutSeconds: 120)
        try #require(result.succeeded, "\(result.stderr)")
        struct Answer: Decodable { let secret: String; let recovery_used: String; let codes: Int }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        #expect(answer.codes == 10)
        let decoded = try Subprocess.runBlocking("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable",
                                                                     folder.appending("qr.png")])
        try #require(decoded.succeeded, "\(decoded.stderr)")
        let uri = decoded.stdout.trimmingCharacters(in: .newlines)
        #expect(uri.hasPrefix("otpauth://totp/") && uri.contains("secret=\(answer.secret)&"), "\(uri)")
        #expect(try env.server.environment.storage.secondFactors.unusedRecoveryCodes(userID: env.user.id) == 9)
    }
}
