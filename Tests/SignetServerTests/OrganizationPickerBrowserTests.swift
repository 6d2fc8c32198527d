import Foundation
import SignetServer
import SignetTesting
import Testing

/// The organization page in headless Chromium: a user in two organizations signs in, picks the
/// second, and the code redeemed carries it. `SIGNET_SCREENSHOTS=docs/images` keeps the page at
/// 390 px and 1280 px (`docs/images/organization-picker-*.png`).
@Suite(.endToEndLimit) struct OrganizationPickerBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/organization_picker.py").path

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func aUserPicksAnOrganizationInChromium() async throws {
        try RealPart.chromium.use()
        let f = try OrganizationClaimsTests.Fixture()
        defer { f.stop() }
        let pkce = PKCEPair.generate()
        var environment: [String: String] = [:]
        environment["SIGNET_TEST_EMAIL"] = Interactive.email
        environment["SIGNET_TEST_PASSWORD"] = Interactive.password
        let result = try await Subprocess.run(PackagePaths.python, [Self.script, f.authorizeURL(pkce).absoluteString,
                                                                    Interactive.callback, f.beta.id],
                                              environment: environment, timeoutSeconds: 120)
        try #require(result.succeeded, "\(result.stderr)")
        struct Answer: Decodable { let redirect: String; let choices: [String] }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        #expect(answer.choices == [f.acme.id, f.beta.id], "ordered by slug")
        let redirect = RedirectTarget(answer.redirect)
        #expect(redirect["state"] == "st-123")
        let response = try await f.redeem(try #require(redirect["code"]), pkce)
        #expect(response.status == 200, "\(response)")
        OrganizationClaimsTests.expectOrganization(try OrganizationClaimsTests.claims(try response.json()["access_token"]?.stringValue),
                                                   f.beta, roles: ["member"])
    }
}
