import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
@testable import SignetServer
import SignetTesting
import SignetWire
import Testing

/// The one renderer: the same `OAuthError` as JSON, as a redirect and as a page, by route kind.
@Suite(.endToEndLimit) struct ErrorRendererTests {
    static let issuer = "https://signet.example"
    static let error = OAuthError.invalidRequest("The scope parameter is repeated.", detail: "private <detail>")

    static func renderer(_ kind: RouteKind) -> ErrorRenderer { ErrorRenderer(kind: kind, route: "/test", issuer: issuer) }

    static func verified(_ uri: String = "com.example.app:/cb", state: String? = "st & 1") throws -> VerifiedRedirect {
        try #require(VerifiedRedirect(AuthorizationFailure.redirect(error, redirectURI: uri, state: state)))
    }

    static func json(_ response: HTTPResponse) throws -> [String: JSONValue] {
        try #require(try JSONValue.parse(response.body).objectValue)
    }

    @Test func aJSONRouteAnswersAnRFC6749ErrorBody() throws {
        let response = Self.renderer(.api(.client)).render(Self.error, redirect: try Self.verified())
        #expect(response.status == 400)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Location"] == nil, "a JSON route never redirects, even when handed a redirect URI")
        #expect(response.headers["WWW-Authenticate"] == nil)
        #expect(try Self.json(response) == ["error": "invalid_request", "error_description": "The scope parameter is repeated."])
        #expect(!String(decoding: response.body, as: UTF8.self).contains("private"), "the private detail is never sent")
    }

    @Test func anAuthorizationRouteRedirectsToTheVerifiedURIWithStateAndIss() throws {
        let response = Self.renderer(.authorization).render(Self.error, redirect: try Self.verified("com.example.app:/cb?x=1"))
        #expect(response.status == 303)
        let location = try #require(response.headers["Location"])
        #expect(location.hasPrefix("com.example.app:/cb?x=1&"))
        let query = try URLQuery(queryOf: location)
        #expect(query.names == ["x", "error", "error_description", "state", "iss"])
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"] == "The scope parameter is repeated.")
        #expect(query["state"] == "st & 1")
        #expect(query["iss"] == Self.issuer)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["X-Frame-Options"] == "DENY")
        #expect(response.body.isEmpty)
    }

    @Test func anAuthorizationRouteWithoutAVerifiedURIShowsAPage() throws {
        let response = Self.renderer(.authorization).render(Self.error)
        #expect(response.status == 400)
        #expect(response.headers["Location"] == nil)
        expectPage(response, containing: "The scope parameter is repeated.")
    }

    @Test func aPageRouteShowsABrandedPageWithoutScriptEvenWhenHandedARedirect() throws {
        let hostile = OAuthError.invalidRequest("<script>alert(1)</script>")
        let response = Self.renderer(.page).render(hostile, redirect: try Self.verified(), title: "Cannot <b>sign out</b>")
        #expect(response.status == 400)
        #expect(response.headers["Location"] == nil, "a page route never redirects an error")
        expectPage(response, containing: "&lt;script&gt;alert(1)&lt;/script&gt;")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains("<script"))
        #expect(text.contains("<h1>Cannot &lt;b&gt;sign out&lt;/b&gt;</h1>"))
    }

    func expectPage(_ response: HTTPResponse, containing text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true, sourceLocation: sourceLocation)
        #expect(body.hasPrefix("<!DOCTYPE html>"), "PageLayout's document", sourceLocation: sourceLocation)
        #expect(body.contains("· Signet</title>"), sourceLocation: sourceLocation)
        #expect(body.contains(text), sourceLocation: sourceLocation)
        #expect(!body.contains("private"), "the private detail is never shown", sourceLocation: sourceLocation)
        #expect(response.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none'") == true, sourceLocation: sourceLocation)
        #expect(response.headers["Cache-Control"] == "no-store", sourceLocation: sourceLocation)
    }

    /// RFC 6749 §5.2 and RFC 6750 §3.1 by authentication: the status and the challenge.
    @Test func statusesAndChallengesFollowTheRouteAuthentication() throws {
        let client = Self.renderer(.api(.client)).render(.invalidClient())
        #expect(client.status == 401)
        #expect(client.headers["WWW-Authenticate"] == #"Basic realm="signet", charset="UTF-8""#)
        // Nothing to challenge where no client authenticates: a plain 400.
        let none = Self.renderer(.api(.none)).render(.invalidClient())
        #expect(none.status == 400)
        #expect(none.headers["WWW-Authenticate"] == nil)
        let bearer = Self.renderer(.api(.bearer)).render(OAuthError(.insufficientScope, "Needs openid."))
        #expect(bearer.status == 403)
        #expect(bearer.headers["WWW-Authenticate"] == #"Bearer realm="signet", error="insufficient_scope", error_description="Needs openid.""#)
        let invalidToken = Self.renderer(.api(.bearer)).render(OAuthError(.invalidToken, "Expired."))
        #expect(invalidToken.status == 401)
        let bare = Self.renderer(.api(.bearer)).missingBearerToken()
        #expect(bare.status == 401)
        #expect(bare.headers["WWW-Authenticate"] == #"Bearer realm="signet""#)
        #expect(bare.body.isEmpty)
        let limited = Self.renderer(.api(.client)).render(OAuthError(.temporarilyUnavailable, "Too many requests."), status: 429, retryAfter: 60)
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] == "60")
        #expect(Self.renderer(.api(.none)).render(OAuthError(.temporarilyUnavailable, "Down.")).status == 503)
        let server = Self.renderer(.api(.client)).render(.serverError(detail: "disk full"))
        #expect(server.status == 500)
        #expect(try Self.json(server)["error_description"] == "The server could not complete the request.")
        let page = Self.renderer(.page).render(.serverError(detail: "disk full"))
        #expect(page.status == 500)
        #expect(String(decoding: page.body, as: UTF8.self).contains("Something went wrong on our side."))
    }

    /// `TokenResponse` is written with exactly its `Codable` members: integer `expires_in`, no nulls, no escaped slashes.
    @Test func theTokenResponseIsItsCodableFields() throws {
        let minimal = OAuthResponses.token(TokenResponse(accessToken: "at", expiresIn: 300))
        #expect(try Self.json(minimal) == ["access_token": "at", "token_type": "Bearer", "expires_in": .int(300)])
        #expect(!String(decoding: minimal.body, as: UTF8.self).contains("null"))
        #expect(minimal.headers["Cache-Control"] == "no-store")
        #expect(minimal.headers["Pragma"] == "no-cache")
        let full = TokenResponse(accessToken: "at", expiresIn: 60, refreshToken: "rt", idToken: "it", scope: "openid https://api/x",
                                 issuedTokenType: "urn:ietf:params:oauth:token-type:access_token")
        let body = try Self.json(OAuthResponses.token(full))
        #expect(String(decoding: OAuthResponses.token(full).body, as: UTF8.self).contains(#""openid https://api/x""#))
        #expect(body == ["access_token": "at", "token_type": "Bearer", "expires_in": .int(60), "refresh_token": "rt",
                         "id_token": "it", "scope": "openid https://api/x",
                         "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"])
        // The same bytes decode back with the type's own Codable conformance.
        let decoded = try JSONDecoder().decode(TokenResponse.self, from: Data(OAuthResponses.token(full).body))
        #expect(decoded == full)
        let odd = TokenResponse(accessToken: "a\"b\\c\n\u{1}é/", expiresIn: -1, scope: "")
        #expect(try JSONDecoder().decode(TokenResponse.self, from: Data(OAuthResponses.token(odd).body)) == odd)
    }

    /// One line per method and path, each with its kind; the OAuth endpoints have the kinds their RFCs need.
    @Test func theRouteTableHasEveryRouteOnceWithItsKind() throws {
        let server = try TestServer()
        defer { server.stop() }
        let table = server.application.routeTable()
        var seen = Set<String>()
        for route in table {
            for method in route.methods {
                #expect(seen.insert("\(method.rawValue) \(route.path)").inserted, "\(method.rawValue) \(route.path) twice")
            }
        }
        func kind(_ method: HTTPMethod, _ path: String) -> RouteKind? {
            table.first { $0.path == path && $0.methods.contains(method) }?.kind
        }
        #expect(kind(.POST, Routes.token) == .api(.client))
        #expect(kind(.POST, Routes.revoke) == .api(.client))
        #expect(kind(.POST, Routes.introspect) == .api(.client))
        #expect(kind(.GET, Routes.userinfo) == .api(.bearer))
        #expect(kind(.POST, Routes.headlessStart) == .api(.none))
        #expect(kind(.GET, Routes.authorize) == .authorization)
        #expect(kind(.POST, Routes.authorize) == .authorization)
        #expect(kind(.GET, Routes.federationCallback) == .authorization)
        #expect(kind(.GET, Routes.signIn) == .page)
        #expect(kind(.POST, Routes.signIn) == .authorization)
        #expect(kind(.GET, Routes.endSession) == .page)
        #expect(kind(.GET, Routes.federationLaunch) == .page)
    }
}
