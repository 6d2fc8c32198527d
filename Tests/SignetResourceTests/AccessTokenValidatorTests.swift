import Foundation
import SignetClientCore
import SignetCrypto
import SignetJOSE
import SignetResource
import SignetServer
import SignetTesting
import Testing

@Suite("SignetResource against a real Signet", .endToEndLimit) struct AccessTokenValidatorTests {
    @Test func acceptsARealTokenAndRefusesAudienceExpiryTamperingAndScope() async throws {
        let fixture = try ResourceFixture()
        defer { fixture.stop() }
        let (accessToken, idToken) = try await fixture.tokens()
        let issuer = fixture.server.issuer
        let validator = try await AccessTokenValidator.discover(issuer: issuer, audience: issuer, realm: "api")

        let token = try await validator.validate(authorization: "Bearer \(accessToken)", requiredScopes: ["openid"])
        #expect(!token.subject.isEmpty)
        #expect(token.clientID == "native")
        #expect(token.scopes.contains("email"))

        // Another audience.
        let other = try await AccessTokenValidator.discover(issuer: issuer, audience: "https://api.other.example")
        await #expect(throws: BearerError(.invalidToken, "the token is for another audience")) {
            try await other.validate(token: accessToken)
        }
        // Expired (the API's clock two hours on).
        let metadata = try await DiscoveryClient.fetch(issuer: issuer, http: OutboundHTTP())
        let later = AccessTokenValidator(issuer: issuer, audience: issuer, keys: JWKSCache(jwksURI: metadata.jwksURI, http: OutboundHTTP()),
                                         clock: { Date().addingTimeInterval(7200) })
        await #expect(throws: BearerError(.invalidToken, "the token has expired")) { try await later.validate(token: accessToken) }
        // Tampered payload: the signature no longer matches.
        var parts = accessToken.split(separator: ".").map(String.init)
        let payload = try #require(Base64URLForTests.decode(parts[1]))
        let altered = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "\"scope\":\"", with: "\"scope\":\"admin ")
        parts[1] = Base64URLForTests.encode(Array(altered.utf8))
        await #expect(throws: BearerError(.invalidToken, "bad signature", realm: "api")) { try await validator.validate(token: parts.joined(separator: ".")) }
        // An ID token is not an access token (RFC 9068 typ).
        await #expect(throws: BearerError(.invalidToken, "the token is not an RFC 9068 access token (typ)", realm: "api")) {
            try await validator.validate(token: idToken)
        }
        // Another issuer.
        let wrongIssuer = AccessTokenValidator(issuer: "https://evil.example", audience: issuer,
                                               keys: JWKSCache(jwksURI: metadata.jwksURI, http: OutboundHTTP()))
        await #expect(throws: BearerError(.invalidToken, "the token is from another issuer")) { try await wrongIssuer.validate(token: accessToken) }
        // Missing scope: 403 insufficient_scope naming the scope.
        do {
            _ = try await validator.validate(token: accessToken, requiredScopes: ["orders.write"])
            Issue.record("a token without the scope was accepted")
        } catch {
            #expect(error.status == 403)
            #expect(error.wwwAuthenticate == "Bearer realm=\"api\", error=\"insufficient_scope\", error_description=\"the token lacks a required scope\", scope=\"orders.write\"")
        }
        // No token at all: 401 without an error code (RFC 6750 §3.1).
        do {
            _ = try await validator.validate(authorization: nil)
            Issue.record("no token was accepted")
        } catch {
            #expect(error.status == 401)
            #expect(error.wwwAuthenticate == "Bearer realm=\"api\"")
        }
        await #expect(throws: BearerError(.invalidRequest, "use the Bearer scheme", realm: "api")) {
            try await validator.validate(authorization: "Basic abc")
        }
        await #expect(throws: BearerError(.invalidToken, "the token is not a JWT", realm: "api")) {
            try await validator.validate(authorization: "Bearer opaque-token")
        }
    }

    @Test func unknownKeyIDsRefetchAtALimitedRate() async throws {
        let mock = try MockProvider(flavor: .generic)
        defer { mock.stop() }
        let cache = JWKSCache(jwksURI: mock.jwksURL, http: OutboundHTTP(), minimumRefetchInterval: 3600)
        let validator = AccessTokenValidator(issuer: mock.issuer, audience: "api", keys: cache)
        var claims = mock.idTokenClaims(nonce: nil, audience: "api")
        claims.values["scope"] = .string("read")
        // RFC 9068 access tokens (typ at+jwt) under a key the provider never published: each
        // reaches the key lookup (a token of another typ would be refused before it).
        let forger = try JWSSigner(key: PrivateKey.generate(.p256), keyID: "never-published", algorithm: .es256)
        let forged = try forger.sign(payload: claims.jsonValue.serialized(), type: "at+jwt")
        // The first lookup fetches the set; further unknown kids do not refetch within the interval.
        for _ in 0..<5 {
            await #expect(throws: BearerError(.invalidToken, "unknown signing key")) { try await validator.validate(token: forged) }
        }
        #expect(mock.requestCount("/jwks") == 1, "the first lookup fetches the set; later unknown kids wait for the interval")
    }
}

extension AccessTokenValidatorTests {
    @Test func unreachableKeysAreA503NotAnInvalidToken() async throws {
        let fixture = try ResourceFixture()
        defer { fixture.stop() }
        let (accessToken, _) = try await fixture.tokens()
        // Nobody listens on this port: the key set cannot be fetched.
        let nowhere = try #require(URL(string: "http://127.0.0.1:\(try FreePort.pick())/jwks"))
        let validator = AccessTokenValidator(issuer: fixture.server.issuer, audience: fixture.server.issuer,
                                             keys: JWKSCache(jwksURI: nowhere, http: OutboundHTTP()), realm: "api")
        let expected = BearerError(.temporarilyUnavailable, "the issuer's signing keys cannot be fetched; try again later", realm: "api")
        // The first lookup fails; the second is inside the refetch interval and must still be the fetch's failure.
        for _ in 0..<2 {
            do {
                _ = try await validator.validate(authorization: "Bearer \(accessToken)")
                Issue.record("a token was accepted without keys")
            } catch {
                #expect(error == expected)
                #expect(error.status == 503)
                #expect(error.wwwAuthenticate == "Bearer realm=\"api\"")
                #expect(error.jsonBody == #"{"error":"temporarily_unavailable","error_description":"the issuer's signing keys cannot be fetched; try again later"}"#)
            }
        }
    }
}

/// base64url without padding, for building tampered tokens.
enum Base64URLForTests {
    static func decode(_ text: String) -> [UInt8]? {
        var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base.count % 4 != 0 { base += "=" }
        return Data(base64Encoded: base).map(Array.init)
    }

    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
