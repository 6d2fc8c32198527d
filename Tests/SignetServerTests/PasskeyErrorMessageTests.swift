import Foundation
import SignetCrypto
import SignetHTTP
import SignetJOSE
@testable import SignetServer
import SignetTesting
import Testing

/// The passkey ceremonies' refusals carry `message`, the words the page's script shows, from the
/// page catalogs in the request's language (`Accept-Language`); `error` and `error_description`
/// stay as they were (registered code, the developer's ASCII English, RFC 6749 §5.2).
@Suite(.endToEndLimit) struct PasskeyErrorMessageTests {
    static let german: HTTPHeaders = ["Accept-Language": "de-DE,de;q=0.9,en;q=0.5"]

    /// A refusal with its code, its unchanged English description, and `message` in `language`.
    func expectMessage(_ response: TestResponse, status: Int = 400, _ code: String, _ description: String, _ message: PasskeyErrorText,
                       german: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        expectPasskeyError(response, status: status, code, description, sourceLocation: sourceLocation)
        let json = (try? response.json()) ?? .null
        let expected = message.localized.text(german ? .de : .en)
        #expect(json["message"]?.stringValue == expected, "\(response)", sourceLocation: sourceLocation)
        #expect(json["error_description"]?.stringValue?.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } == true, sourceLocation: sourceLocation)
        #expect(response.header("Vary") == "Accept-Language", sourceLocation: sourceLocation)
    }

    func post(_ fixture: PasskeyFixture, _ path: String, json body: [UInt8], browser: FormBrowser, headers: HTTPHeaders) async throws -> TestResponse {
        var all = headers
        all.set("Content-Type", "application/json")
        return try await fixture.client(browser).send(method: "POST", url: fixture.server.url(path), body: body, headers: all)
    }

    @Test func signInRefusalsAreInThePagesLanguage() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        for (headers, german) in [(HTTPHeaders(), false), (Self.german, true)] {
            // A used challenge.
            let (browser, options) = try await fixture.startSignIn()
            let body = try device.assert(options)
            #expect(try await post(fixture, Routes.passkeySignInFinish, json: body, browser: browser, headers: headers).status == 200)
            expectMessage(try await post(fixture, Routes.passkeySignInFinish, json: body, browser: browser, headers: headers),
                          "invalid_request", "unknown, expired or already used", .challengeGone, german: german)
            // A credential this server does not know, and an assertion from the wrong origin.
            let (other, options2) = try await fixture.startSignIn()
            expectMessage(try await post(fixture, Routes.passkeySignInFinish, json: try device.assert(options2, credentialID: SecureRandom.bytes(16)),
                                         browser: other, headers: headers),
                          "access_denied", "not registered here", .notRegistered, german: german)
            let (third, options3) = try await fixture.startSignIn()
            expectMessage(try await post(fixture, Routes.passkeySignInFinish, json: try device.assert(options3, origin: "https://evil.example"),
                                         browser: third, headers: headers),
                          "invalid_request", "origin \"https://evil.example\" is not allowed", .notVerified, german: german)
            // The options without the page's CSRF field, and a body that is not JSON.
            let page = try await FormBrowser(preferences: headers).open(fixture.env.authorizeURL(pkce: PKCEPair.generate()))
            let handle = try PasskeyFixture.data("request", in: page.response.text)
            expectMessage(try await HTTPTestClient().post(fixture.server.url(Routes.passkeySignInOptions), form: [("request", handle), ("csrf", "x")],
                                                          headers: headers),
                          "access_denied", "could not be verified", .formNotVerified, german: german)
            var form = headers
            form.set("Content-Type", "application/x-www-form-urlencoded")
            expectMessage(try await fixture.client(browser).send(method: "POST", url: fixture.server.url(Routes.passkeySignInFinish),
                                                                 body: Array("a=b".utf8), headers: form),
                          "invalid_request", "must be application/json", .malformed, german: german)
        }
    }

    @Test func registrationRefusalsAreInThePagesLanguage() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let device = try SoftwareAuthenticator(rpID: fixture.rpID, origin: fixture.origin)
        try await fixture.register(device)
        for (headers, german) in [(HTTPHeaders(), false), (Self.german, true)] {
            expectMessage(try await HTTPTestClient().post(fixture.server.url(Routes.passkeyRegisterOptions), form: [("csrf", "x")], headers: headers),
                          "login_required", "Sign in first", .signInFirst, german: german)
            let options = try await fixture.registrationOptions()
            expectMessage(try await post(fixture, Routes.passkeyRegisterFinish, json: device.register(options), browser: fixture.browser, headers: headers),
                          "invalid_request", "registered already", .alreadyRegistered, german: german)
        }
        #expect(try fixture.passkeys().count == 1)
    }

    /// The script shows `message` (and, without one, its own words from the page), never the
    /// developer's `error_description`.
    @Test func theScriptShowsTheMessage() {
        #expect(PasskeyScript.source.contains("new Error(json.message || data.failed)"))
        #expect(!PasskeyScript.source.contains("error_description"))
    }

    /// A native app's ceremony is not a page's: its errors carry no `message`.
    @Test func theNativeEndpointsHaveNoMessage() async throws {
        let fixture = try await PasskeyFixture()
        defer { fixture.stop() }
        let response = try await HTTPTestClient().post(fixture.server.url(Routes.passkeyNativeOptions), form: [("client_id", "native")],
                                                       headers: Self.german)
        // Only client_id: the authorization request is incomplete (no redirect_uri), refused as /authorize would.
        #expect(response.status == 400, "\(response)")
        let json = try response.json()
        #expect(json["error"]?.stringValue == "invalid_request", "\(response)")
        #expect(json["message"] == nil)
    }
}
