import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// The JWKS as a relying party sees it: fetched over HTTP, then used by two independent verifiers.
@Suite(.endToEndLimit) struct JWKSEndToEndTests {
    static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    @Test func publishesPublicRS256AndES256KeysWithUniqueKids() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try await HTTPTestClient().get(server.url(Routes.jwks))
        #expect(response.status == 200)
        #expect(response.mediaType == "application/jwk-set+json")
        #expect(response.header("Cache-Control") != nil)
        let keys = try #require(try response.json()["keys"]?.arrayValue)
        #expect(Set(keys.compactMap { $0["alg"]?.stringValue }) == ["RS256", "ES256"])
        for key in keys {
            let members = try #require(key.objectValue)
            for member in Self.privateMembers {
                #expect(members[member] == nil, "private member \(member) published in \(key)")
            }
            #expect(key["use"] == "sig")
        }
        let kids = keys.compactMap { $0["kid"]?.stringValue }
        #expect(kids.count == keys.count)
        #expect(Set(kids).count == kids.count)
        // SignetJOSE's own parser accepts the document (it refuses private members and duplicate kids).
        #expect(try JWKSet(jsonBytes: response.body).keys.count == keys.count)
    }

    /// One JWT per algorithm, signed through the key ring, verified with the JWKS fetched over
    /// HTTP by SignetJOSE and by Python jwcrypto (one launch); tampered copies fail in both.
    @Test func tokensVerifyWithTheServedJWKSInSignetJOSEAndJwcrypto() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let jwksBytes = try await HTTPTestClient().get(server.url(Routes.jwks)).body
        let now = server.clock.now
        var tokens: [String] = []
        for algorithm in [SignatureAlgorithm.rs256, .es256] {
            let signer = try server.environment.keyRing.signer(for: algorithm)
            var claims = JWTClaims()
            claims.iss = server.issuer
            claims.sub = "user-\(algorithm.rawValue)"
            claims.aud = ["api"]
            claims.iat = now
            claims.exp = now.addingTimeInterval(300)
            tokens.append(try signer.signJWT(claims))
        }
        let tampered = tokens.map(Self.tamper)

        let verifier = try JWTVerifier(keys: JWKSet(jsonBytes: jwksBytes).verificationKeys(),
                                       policy: VerificationPolicy(issuer: server.issuer, audience: "api", clock: { now }))
        for (index, token) in tokens.enumerated() {
            let verified = try verifier.verify(token)
            #expect(verified.claims.sub == (index == 0 ? "user-RS256" : "user-ES256"))
        }
        for token in tampered {
            #expect(throws: JOSEError.badSignature) { try verifier.verify(token) }
        }

        let results = try await JWCrypto.verify(tokens: tokens + tampered, jwks: jwksBytes)
        try #require(results.count == 4)
        for (index, result) in results.prefix(2).enumerated() {
            #expect(result.ok, "jwcrypto refused a Signet token: \(result.error ?? "?")")
            #expect(result.claims?["iss"] == .string(server.issuer))
            #expect(result.header?["alg"] == .string(index == 0 ? "RS256" : "ES256"))
        }
        for result in results.suffix(2) {
            #expect(!result.ok, "jwcrypto accepted a tampered token")
        }
    }

    /// Replaces the payload, keeping header and signature.
    static func tamper(_ token: String) -> String {
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"aud":"api","exp":9999999999,"sub":"admin"}"#.utf8))
        return parts.joined(separator: ".")
    }
}
