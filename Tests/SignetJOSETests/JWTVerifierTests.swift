import Foundation
import SignetTesting
import Testing
import SignetCrypto
@testable import SignetJOSE

@Suite(.endToEndLimit) struct JWTVerifierTests {
    let key: PrivateKey
    let signer: JWSSigner
    let verifier: JWTVerifier

    init() throws {
        key = try #require(TestKeys.p256)
        signer = try JWSSigner(key: key, keyID: "ec-1", algorithm: .es256)
        verifier = try Self.verifier(keys: [signer.verificationKey()])
    }

    static func verifier(keys: [VerificationKey], _ adjust: (inout VerificationPolicy) -> Void = { _ in }) throws -> JWTVerifier {
        var policy = VerificationPolicy(issuer: "https://id.example.com", audience: "api", leeway: 30,
                                        clock: { fixedNow })
        adjust(&policy)
        return try JWTVerifier(keys: keys, policy: policy)
    }

    func expectRejected(_ token: String, _ error: JOSEError, verifier: JWTVerifier? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try (verifier ?? self.verifier).verify(token) }
    }

    func forged(header: String, payload: String? = nil) throws -> String {
        try forge(header: header, payload: payload ?? validClaims().jsonValue.serializedString(), key: key, algorithm: .es256)
    }

    // MARK: Accepting

    @Test(arguments: SignatureAlgorithm.allCases)
    func acceptsValidTokens(_ algorithm: SignatureAlgorithm) throws {
        let signer = try JWSSigner(key: #require(TestKeys.key(for: algorithm)), keyID: "k-\(algorithm.rawValue)", algorithm: algorithm)
        let verifier = try Self.verifier(keys: [signer.verificationKey(), self.signer.verificationKey()])
        let token = try signer.signJWT(validClaims(["nonce": "n-1"]))
        let verified = try verifier.verify(token)
        #expect(verified.claims.sub == "user-1")
        #expect(verified.claims.nonce == "n-1")
        #expect(verified.claims.exp == fixedNow.addingTimeInterval(300))
        #expect(verified.header["typ"] == "JWT")
        #expect(verified.keyID == "k-\(algorithm.rawValue)")
        #expect(verified.algorithm == algorithm)
    }

    @Test func headerIsDeterministic() throws {
        let token = try signer.signJWT(validClaims(), type: "at+jwt")
        let header = try #require(token.split(separator: ".").first)
        #expect(Base64URL.decode(header) == Array(#"{"alg":"ES256","kid":"ec-1","typ":"at+jwt"}"#.utf8))
        let untyped = try signer.sign(payload: Array("hello".utf8))
        let untypedHeader = try #require(untyped.split(separator: ".").first)
        #expect(Base64URL.decode(untypedHeader) == Array(#"{"alg":"ES256","kid":"ec-1"}"#.utf8))
        #expect(try verifier.verifySignature(untyped).payload == Array("hello".utf8))
    }

    @Test func leewayIsApplied() throws {
        // Expired 20 s ago, leeway 30 s: accepted. nbf 20 s ahead: accepted.
        var claims = validClaims()
        claims.exp = fixedNow.addingTimeInterval(-20)
        claims.nbf = fixedNow.addingTimeInterval(20)
        claims.iat = fixedNow.addingTimeInterval(20)
        #expect(throws: Never.self) { try verifier.verify(signer.signJWT(claims)) }
    }

    @Test func fractionalNumericDatesAreAccepted() throws {
        let payload = #"{"aud":"api","exp":1700000100.5,"iat":1699999999.25,"iss":"https://id.example.com"}"#
        let verified = try verifier.verify(forged(header: #"{"alg":"ES256","kid":"ec-1"}"#, payload: payload))
        #expect(verified.claims.exp == Date(timeIntervalSince1970: 1_700_000_100.5))
    }

    @Test func audienceArrayIsAccepted() throws {
        var claims = validClaims()
        claims.aud = ["other", "api"]
        #expect(throws: Never.self) { try verifier.verify(signer.signJWT(claims)) }
    }

    // MARK: Algorithm and key selection

    @Test func algNoneIsRejected() throws {
        for none in ["none", "None", "NONE", "nOnE"] {
            let header = b64(#"{"alg":"\#(none)","kid":"ec-1"}"#)
            let payload = b64(validClaims().jsonValue.serializedString())
            expectRejected("\(header).\(payload).", .algorithmNone)
            // Even with a (meaningless) signature attached.
            expectRejected("\(header).\(payload).AAAA", .algorithmNone)
        }
    }

    @Test func hmacAlgorithmsAreRejected() throws {
        for alg in ["HS256", "HS384", "HS512", "hs256"] {
            let header = b64(#"{"alg":"\#(alg)","kid":"ec-1"}"#)
            let payload = b64(validClaims().jsonValue.serializedString())
            // The classic confusion attack: HMAC keyed with the public key bytes.
            let mac = HMAC.sha256(key: key.publicKey.spkiDER, message: Array("\(header).\(payload)".utf8))
            expectRejected("\(header).\(payload).\(Base64URL.encode(mac))", .symmetricAlgorithm)
        }
    }

    @Test func algorithmMustMatchPinnedKeyAlgorithm() throws {
        let rsa = try #require(TestKeys.rsa)
        let rsKey = try VerificationKey(keyID: "rsa", algorithm: .rs256, publicKey: rsa.publicKey)
        let verifier = try Self.verifier(keys: [rsKey])
        // A valid PS256 signature by the right key, but the key is pinned to RS256.
        let ps = try forge(header: #"{"alg":"PS256","kid":"rsa"}"#, payload: validClaims().jsonValue.serializedString(), key: rsa, algorithm: .ps256)
        expectRejected(ps, .algorithmMismatch, verifier: verifier)
        // An unknown algorithm name.
        expectRejected(try forged(header: #"{"alg":"ES384","kid":"ec-1"}"#), .algorithmMismatch)
        expectRejected(try forged(header: #"{"alg":"es256","kid":"ec-1"}"#), .algorithmMismatch)
        expectRejected(try forged(header: #"{"kid":"ec-1"}"#), .missingAlgorithm)
        expectRejected(try forged(header: #"{"alg":1,"kid":"ec-1"}"#), .missingAlgorithm)
    }

    @Test func missingKidIsRejectedEvenWithOneKey() throws {
        expectRejected(try forged(header: #"{"alg":"ES256"}"#), .missingKeyID)
    }

    @Test func missingKidIsAcceptedWithOneKeyOnlyWhenThePolicySaysSo() throws {
        // OpenID Connect Core §10.1: upstream ID tokens may leave kid out when the set holds one key.
        let lenient = try Self.verifier(keys: [signer.verificationKey()]) { $0.allowsMissingKeyIDWithSingleKey = true }
        let verified = try lenient.verify(try forged(header: #"{"alg":"ES256","typ":"JWT"}"#))
        #expect(verified.keyID == "ec-1")
        #expect(verified.claims.sub == "user-1")
        // The key still pins the algorithm, and the signature must still be the key's.
        expectRejected(try forged(header: #"{"alg":"RS256"}"#), .algorithmMismatch, verifier: lenient)
        let stranger = try forge(header: #"{"alg":"ES256"}"#, payload: validClaims().jsonValue.serializedString(),
                                 key: #require(TestKeys.otherP256), algorithm: .es256)
        expectRejected(stranger, .badSignature, verifier: lenient)
        // With two keys a token must name one.
        let other = try JWSSigner(key: #require(TestKeys.otherP256), keyID: "ec-2", algorithm: .es256)
        let two = try Self.verifier(keys: [signer.verificationKey(), other.verificationKey()]) { $0.allowsMissingKeyIDWithSingleKey = true }
        expectRejected(try forged(header: #"{"alg":"ES256"}"#), .missingKeyID, verifier: two)
    }

    @Test func unknownKidNeverFallsBack() throws {
        let other = try JWSSigner(key: #require(TestKeys.otherP256), keyID: "ec-2", algorithm: .es256)
        let verifier = try Self.verifier(keys: [signer.verificationKey(), other.verificationKey()])
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-3"}"#), .unknownKeyID, verifier: verifier)
        expectRejected(try forged(header: #"{"alg":"ES256","kid":7}"#), .unknownKeyID, verifier: verifier)
        expectRejected(try forged(header: #"{"alg":"ES256"}"#), .missingKeyID, verifier: verifier)
        // Signed by ec-1's key but naming ec-2: the signature check uses ec-2 only.
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-2"}"#), .badSignature, verifier: verifier)
    }

    @Test func duplicateKeyIDsAreRefused() throws {
        #expect(throws: JOSEError.duplicateKeyID) { try Self.verifier(keys: [signer.verificationKey(), signer.verificationKey()]) }
    }

    @Test func critIsRejected() throws {
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1","crit":["exp"],"exp":1}"#), .criticalHeader)
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1","crit":[]}"#), .criticalHeader)
    }

    @Test func embeddedKeyHeadersAreRejected() throws {
        let jwk = String(decoding: try JWK(publicKey: key.publicKey, keyID: "ec-1", algorithm: .es256).jsonBytes(), as: UTF8.self)
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1","jwk":\#(jwk)}"#), .forbiddenHeader("jwk"))
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1","jku":"https://evil.example/jwks"}"#), .forbiddenHeader("jku"))
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1","x5u":"https://evil.example/cert"}"#), .forbiddenHeader("x5u"))
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1","x5c":["MIIB"]}"#), .forbiddenHeader("x5c"))
    }

    // MARK: Shape

    @Test func malformedBase64IsRejected() throws {
        let token = try signer.signJWT(validClaims())
        let parts = token.split(separator: ".").map(String.init)
        expectRejected("\(parts[0])=.\(parts[1]).\(parts[2])", .invalidBase64URL)
        expectRejected("\(parts[0]).\(parts[1])+.\(parts[2])", .invalidBase64URL)
        expectRejected("\(parts[0]).\(parts[1]).\(parts[2])*", .invalidBase64URL)
        expectRejected("\(parts[0]).\(parts[1]).\(parts[2].dropLast())", .invalidBase64URL)  // impossible length or bits
    }

    @Test func wrongSegmentCountIsRejected() throws {
        let token = try signer.signJWT(validClaims())
        let parts = token.split(separator: ".").map(String.init)
        expectRejected("\(parts[0]).\(parts[1])", .wrongSegmentCount)
        expectRejected("\(token).\(parts[2])", .wrongSegmentCount)
        expectRejected("\(token).", .wrongSegmentCount)
        expectRejected(parts[0], .wrongSegmentCount)
        expectRejected("", .wrongSegmentCount)
        // JWE-shaped (five parts).
        expectRejected("\(parts[0]).\(parts[1]).\(parts[2]).\(parts[1]).\(parts[2])", .wrongSegmentCount)
    }

    @Test func trailingDataAndWhitespaceAreRejected() throws {
        let token = try signer.signJWT(validClaims())
        expectRejected(token + " ", .invalidBase64URL)
        expectRejected(token + "\n", .invalidBase64URL)
        expectRejected(" " + token, .invalidBase64URL)
        expectRejected(token + "AA", .badSignature)  // extra valid base64url changes the signature bytes
    }

    @Test func oversizedTokensAreRejected() throws {
        let big = validClaims(["pad": .string(String(repeating: "x", count: 20_000))])
        let token = try signer.signJWT(big)
        expectRejected(token, .tokenTooLarge)
        let roomy = try Self.verifier(keys: [signer.verificationKey()]) { $0.maxTokenBytes = 64 * 1024 }
        #expect(throws: Never.self) { try roomy.verify(token) }
    }

    @Test func duplicateJSONKeysAreRejected() throws {
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1","kid":"ec-1"}"#), .duplicateJSONKey)
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1"}"#,
                                  payload: #"{"iss":"https://id.example.com","aud":"api","exp":1700000300,"sub":"a","sub":"b"}"#),
                       .duplicateJSONKey)
    }

    @Test func nonObjectHeaderOrPayloadIsRejected() throws {
        expectRejected(try forged(header: #"["alg","ES256"]"#), .notAJSONObject)
        expectRejected(try forged(header: #""ES256""#), .notAJSONObject)
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1"}"#, payload: "[1,2]"), .notAJSONObject)
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1"}"#, payload: "not json"), .malformedJSON)
        expectRejected(try forged(header: #"{"alg":"ES256","kid":"ec-1"} x"#), .malformedJSON)
    }

    // MARK: Signature

    @Test func badSignaturesAreRejected() throws {
        let token = try signer.signJWT(validClaims())
        var parts = token.split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[5] ^= 1
        parts[2] = Base64URL.encode(signature)
        expectRejected(parts.joined(separator: "."), .badSignature)
        // Payload swapped under a valid signature.
        let other = try signer.signJWT(validClaims(["jti": "different"]))
        let otherParts = other.split(separator: ".").map(String.init)
        expectRejected("\(otherParts[0]).\(otherParts[1]).\(token.split(separator: ".")[2])", .badSignature)
        // Empty and wrong-length signatures.
        expectRejected("\(otherParts[0]).\(otherParts[1]).", .badSignature)
        expectRejected("\(otherParts[0]).\(otherParts[1]).\(Base64URL.encode(Array(signature.dropLast())))", .badSignature)
    }

    @Test func rfc7515ExamplesHaveNoKidAndAreRejected() throws {
        // RFC 7515 A.3: a genuine ES256 token, but with no kid Signet cannot select a key.
        let token = "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        let publicKey = try JWK(kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                                y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0").publicKey()
        let verifier = try JWTVerifier(keys: [VerificationKey(keyID: "a3", algorithm: .es256, publicKey: publicKey)],
                                       policy: VerificationPolicy(requireExp: false, clock: { fixedNow }))
        #expect(throws: JOSEError.missingKeyID) { try verifier.verifySignature(token) }
        // The signature itself is the RFC's valid one.
        let parts = token.split(separator: ".")
        #expect(publicKey.verify(signature: try #require(Base64URL.decode(parts[2])),
                                 message: Array("\(parts[0]).\(parts[1])".utf8), algorithm: .es256))
    }

    // MARK: Claims

    @Test func expiredIsRejected() throws {
        var claims = validClaims()
        claims.exp = fixedNow.addingTimeInterval(-31)
        expectRejected(try signer.signJWT(claims), .expired)
        claims.exp = fixedNow.addingTimeInterval(-30)  // exactly at exp + leeway: no longer valid
        expectRejected(try signer.signJWT(claims), .expired)
    }

    @Test func missingExpIsRejectedByDefault() throws {
        var claims = validClaims()
        claims.exp = nil
        expectRejected(try signer.signJWT(claims), .missingExpiration)
        let lenient = try Self.verifier(keys: [signer.verificationKey()]) { $0.requireExp = false }
        #expect(throws: Never.self) { try lenient.verify(signer.signJWT(claims)) }
    }

    @Test func notYetValidIsRejected() throws {
        var claims = validClaims()
        claims.nbf = fixedNow.addingTimeInterval(31)
        expectRejected(try signer.signJWT(claims), .notYetValid)
    }

    @Test func issuedInFutureIsRejected() throws {
        var claims = validClaims()
        claims.iat = fixedNow.addingTimeInterval(31)
        expectRejected(try signer.signJWT(claims), .issuedInFuture)
    }

    @Test func wrongIssuerIsRejected() throws {
        var claims = validClaims()
        claims.iss = "https://id.example.com/"
        expectRejected(try signer.signJWT(claims), .wrongIssuer)
        claims.iss = nil
        expectRejected(try signer.signJWT(claims), .wrongIssuer)
        // Canonically equivalent but different bytes: still wrong.
        let verifier = try Self.verifier(keys: [signer.verificationKey()]) { $0.issuer = "https://caf\u{e9}.example" }
        claims.iss = "https://cafe\u{301}.example"
        expectRejected(try signer.signJWT(claims), .wrongIssuer, verifier: verifier)
    }

    @Test func wrongAudienceIsRejected() throws {
        var claims = validClaims()
        claims.aud = ["other"]
        expectRejected(try signer.signJWT(claims), .wrongAudience)
        claims.aud = ["other", "API"]
        expectRejected(try signer.signJWT(claims), .wrongAudience)
        claims.aud = nil
        expectRejected(try signer.signJWT(claims), .wrongAudience)
    }

    @Test func wrongClaimTypesAreRejected() throws {
        let header = #"{"alg":"ES256","kid":"ec-1"}"#
        expectRejected(try forged(header: header, payload: #"{"iss":"https://id.example.com","aud":"api","exp":"1700000300"}"#), .invalidClaim("exp"))
        expectRejected(try forged(header: header, payload: #"{"iss":"https://id.example.com","aud":"api","exp":1700000300,"nbf":true}"#), .invalidClaim("nbf"))
        expectRejected(try forged(header: header, payload: #"{"iss":"https://id.example.com","aud":["api",1],"exp":1700000300}"#), .invalidClaim("aud"))
        expectRejected(try forged(header: header, payload: #"{"iss":["https://id.example.com"],"aud":"api","exp":1700000300}"#), .invalidClaim("iss"))
    }

    @Test func typIsChecked() throws {
        let verifier = try Self.verifier(keys: [signer.verificationKey()]) { $0.allowedTypes = ["at+jwt"] }
        #expect(throws: Never.self) { try verifier.verify(signer.signJWT(validClaims(), type: "at+jwt")) }
        #expect(throws: Never.self) { try verifier.verify(signer.signJWT(validClaims(), type: "application/AT+JWT")) }
        expectRejected(try signer.signJWT(validClaims(), type: "JWT"), .wrongType, verifier: verifier)
        expectRejected(try signer.signJWT(validClaims(), type: nil), .wrongType, verifier: verifier)
    }
}
