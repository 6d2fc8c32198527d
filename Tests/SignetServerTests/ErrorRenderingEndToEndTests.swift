import Foundation
import SignetServer
import SignetTesting
import Testing

/// One `OAuthError`, three routes, three renderings (the route table's kinds): JSON on /token, a
/// redirect with `state` and `iss` on /authorize once the redirect URI is verified, and a page on
/// /authorize while it is not. Real HTTP against the real route table.
@Suite(.endToEndLimit) struct ErrorRenderingEndToEndTests {
    static let description = "The scope parameter is repeated."

    @Test func theSameErrorIsJSONOnTokenARedirectOnAuthorizeAndAPageBeforeTheRedirectURIIsVerified() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let storage = fixture.server.environment.storage

        // /token (JSON API): RFC 6749 §5.2.
        let token = try await fixture.post(Routes.token, [("grant_type", "client_credentials"), ("scope", "api.read"), ("scope", "api.read")],
                                           headers: fixture.rsAuthorization)
        #expect(token.status == 400, "\(token)")
        #expect(token.mediaType == "application/json")
        #expect(try token.json() == ["error": "invalid_request", "error_description": .string(Self.description)])
        #expect(token.header("Cache-Control") == "no-store")
        #expect(token.header("WWW-Authenticate") == nil)
        #expect(token.location == nil)

        // /authorize with the registered redirect URI: a 303 to it with error, state and iss (RFC 9207).
        func authorize(redirectURI: String) -> String {
            Routes.authorize + "?" + [("response_type", "code"), ("client_id", "app"), ("redirect_uri", redirectURI),
                                      ("scope", "openid"), ("scope", "email"), ("state", "st/1 &x"),
                                      ("code_challenge", APIFixture.pkce.challenge), ("code_challenge_method", "S256")]
                .map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        }
        let redirected = try await fixture.get(authorize(redirectURI: APIFixture.redirect))
        #expect(redirected.status == 303, "\(redirected)")
        let target = RedirectTarget(try #require(redirected.location))
        #expect(target.base == APIFixture.redirect)
        let query = try target.query()
        #expect(query.names == ["error", "error_description", "state", "iss"])
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"] == Self.description)
        #expect(query["state"] == "st/1 &x")
        #expect(query["iss"] == fixture.server.issuer)
        #expect(redirected.header("Cache-Control") == "no-store")
        #expect(redirected.body.isEmpty)

        // /authorize with an unregistered redirect URI: a page, never a redirect (RFC 6749 §4.1.2.1).
        let page = try await fixture.get(authorize(redirectURI: "com.example.app:/elsewhere"))
        #expect(page.status == 400, "\(page)")
        #expect(page.location == nil)
        #expect(page.mediaType == "text/html")
        #expect(page.text.hasPrefix("<!DOCTYPE html>"))
        #expect(page.text.contains("The redirect_uri is not registered for this client."))
        #expect(!page.text.contains("<script"))
        #expect(!page.text.contains("elsewhere"), "nothing of the request is reflected")
        expectHardened(page)

        // None of the three started anything: no pending request, code, session or grant.
        #expect(page.setCookies.isEmpty && redirected.setCookies.isEmpty)
        #expect(try storage.purge(before: fixture.server.clock.now.addingTimeInterval(10 * 365 * 86_400)) == 0)
    }
}
