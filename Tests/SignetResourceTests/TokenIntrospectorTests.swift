import Foundation
import SignetClientCore
import SignetCore
import SignetHTTP
import SignetJOSE
@testable import SignetResource
import SignetServer
import SignetTesting
import Testing

/// `TokenIntrospector` against the real `/introspect` of a real Signet: an answer is accepted only
/// when it is active, from the issuer, for the audience and not expired by the caller's clock; a
/// wrong secret is a token that could not be checked. An answer that lacks a claim (RFC 7662 makes
/// them all optional) is refused as the JWT path refuses a token without it.
@Suite("TokenIntrospector against a real Signet", .endToEndLimit) struct TokenIntrospectorTests {
    @Test func acceptsAnActiveAnswerAndRefusesInactiveIssuerAudienceExpiryAndSecret() async throws {
        let fixture = try ResourceFixture()
        defer { fixture.stop() }
        let secret = try fixture.registerResourceServer()
        let (accessToken, _) = try await fixture.tokens()
        let issuer = fixture.server.issuer
        let endpoint = fixture.server.url(Routes.introspect)
        let introspector = TokenIntrospector(endpoint: endpoint, clientID: "rs", clientSecret: secret)
        let now = fixture.server.clock.now
        func check(_ token: String, issuer: String = issuer, audience: String = issuer, now: Date = now,
                   with introspector: TokenIntrospector = introspector) async throws(BearerError) -> ValidatedAccessToken {
            try await introspector.introspect(token, issuer: issuer, audience: audience, realm: "api", now: now, leeway: 30)
        }

        let token = try await check(accessToken)
        #expect(!token.subject.isEmpty && token.clientID == "native" && token.scopes.contains("email"))
        await #expect(throws: BearerError(.invalidToken, "the token is not active", realm: "api")) { try await check("sgat_not-a-token") }
        await #expect(throws: BearerError(.invalidToken, "the token is from another issuer", realm: "api")) {
            try await check(accessToken, issuer: "https://evil.example")
        }
        await #expect(throws: BearerError(.invalidToken, "the token is for another audience", realm: "api")) {
            try await check(accessToken, audience: "https://api.other.example")
        }
        // The server still says active; the API's clock, two hours on, says expired.
        await #expect(throws: BearerError(.invalidToken, "the token has expired", realm: "api")) {
            try await check(accessToken, now: now.addingTimeInterval(7_200))
        }
        let wrongSecret = TokenIntrospector(endpoint: endpoint, clientID: "rs", clientSecret: secret + "x")
        await #expect(throws: BearerError(.invalidToken, "the token could not be checked", realm: "api")) {
            try await check(accessToken, with: wrongSecret)
        }
        // Through the validator, which hands over its clock: a token that is not a JWT goes to
        // `/introspect`; a refresh token of another client is not active there.
        let metadata = try await DiscoveryClient.fetch(issuer: issuer, http: OutboundHTTP())
        let validator = AccessTokenValidator(issuer: issuer, audience: issuer, keys: JWKSCache(jwksURI: metadata.jwksURI, http: OutboundHTTP()),
                                             realm: "api", introspection: introspector, clock: { now })
        let refresh = try await fixture.refreshToken()
        await #expect(throws: BearerError(.invalidToken, "the token is not active", realm: "api")) { try await validator.validate(token: refresh) }
    }

    /// Answers from a stand-in endpoint, each lacking one claim the JWT path requires.
    @Test func refusesAnAnswerWithoutActiveIssuerAudienceExpiryOrSubject() async throws {
        let exp = Int(Date().timeIntervalSince1970) + 600
        let complete = #""active":true,"iss":"https://id.example","aud":"https://api.example","exp":\#(exp),"sub":"u1","scope":"a""#
        let answers: [(String, String)] = [
            (#"{"active":"true","iss":"https://id.example","aud":"https://api.example","exp":\#(exp),"sub":"u1"}"#, "the token is not active"),
            (#"{"active":true,"aud":"https://api.example","exp":\#(exp),"sub":"u1"}"#, "the token is from another issuer"),
            (#"{"active":true,"iss":"https://id.example","exp":\#(exp),"sub":"u1"}"#, "the token is for another audience"),
            (#"{"active":true,"iss":"https://id.example","aud":"https://api.example","sub":"u1"}"#, "the token has expired"),
            (#"{"active":true,"iss":"https://id.example","aud":"https://api.example","exp":\#(exp)}"#, "the token has no sub"),
        ]
        let answer = ThreadBox(complete)
        let router = Router()
        router.post("/introspect", .sync { _ in .json(Array("{\(answer.value)}".utf8)) })
        let server = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:0")], threadCount: 1,
                                                                     logLibraryErrors: false), router: router)
        try server.start()
        defer { server.stop() }
        let endpoint = try #require(URL(string: "http://127.0.0.1:\(server.boundPorts.first ?? 0)/introspect"))
        let introspector = TokenIntrospector(endpoint: endpoint, clientID: "rs", clientSecret: "s")
        let accepted = try await introspector.introspect("t", issuer: "https://id.example", audience: "https://api.example", realm: nil,
                                                         now: Date(), leeway: 0)
        #expect(accepted.subject == "u1" && accepted.scopes == ["a"])
        for (body, refusal) in answers {
            answer.value = String(body.dropFirst().dropLast())
            await #expect(throws: BearerError(.invalidToken, refusal), "\(body)") {
                try await introspector.introspect("t", issuer: "https://id.example", audience: "https://api.example", realm: nil,
                                                  now: Date(), leeway: 0)
            }
        }
    }
}

/// A value one test thread sets and the server's thread reads.
private final class ThreadBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String
    init(_ value: String) { stored = value }
    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
