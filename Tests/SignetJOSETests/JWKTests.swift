import SignetTesting
import Testing
import SignetCrypto
@testable import SignetJOSE

@Suite(.endToEndLimit) struct JWKTests {
    static let rfc7638N = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"

    @Test func rfc7638Thumbprint() throws {
        let json = #"{"kty":"RSA","n":"\#(Self.rfc7638N)","e":"AQAB","alg":"RS256","kid":"2011-04-29"}"#
        let jwk = try JWK(jsonBytes: Array(json.utf8))
        #expect(jwk.thumbprint() == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        // Optional members do not change it.
        var bare = jwk
        bare.kid = nil
        bare.alg = nil
        #expect(bare.thumbprint() == jwk.thumbprint())
        #expect(try jwk.publicKey().type == .rsa(bits: 2048))
        #expect(try jwk.verificationKey().keyID == "2011-04-29")
        #expect(try bare.verificationKey().keyID == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func roundTripThroughJSON(_ algorithm: SignatureAlgorithm) throws {
        let key = try #require(TestKeys.key(for: algorithm))
        let jwk = try JWK(publicKey: key.publicKey, keyID: "k1", algorithm: algorithm)
        #expect(jwk.use == "sig")
        #expect(jwk.alg == algorithm.rawValue)
        let parsed = try JWK(jsonBytes: jwk.jsonBytes())
        #expect(parsed == jwk)
        #expect(try parsed.publicKey() == key.publicKey)
        #expect(try parsed.signatureAlgorithm() == algorithm)
        // Serialization is deterministic and sorted.
        let text = String(decoding: jwk.jsonBytes(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"alg":"\#(algorithm.rawValue)","#))
    }

    @Test func ecJWKShape() throws {
        let key = try #require(TestKeys.p256)
        let jwk = try JWK(publicKey: key.publicKey, keyID: "ec", algorithm: .es256)
        #expect(jwk.kty == "EC")
        #expect(jwk.crv == "P-256")
        #expect(jwk.x?.count == 43)
        #expect(jwk.y?.count == 43)
        #expect(jwk.n == nil)
    }

    @Test func privateMembersAreRejected() {
        for member in ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] {
            let json = #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","\#(member)":"AAAA"}"#
            #expect(throws: JOSEError.privateKeyMaterial) { try JWK(jsonBytes: Array(json.utf8)) }
        }
    }

    @Test func invalidKeysAreRejected() throws {
        let x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
        let y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
        #expect(try JWK(kty: "EC", crv: "P-256", x: x, y: y).publicKey().type == .p256)
        #expect(throws: JOSEError.invalidKey) { try JWK(kty: "EC", crv: "P-256", x: x, y: x).publicKey() }  // off curve
        #expect(throws: JOSEError.invalidKey) { try JWK(kty: "EC", crv: "P-384", x: x, y: y).publicKey() }
        #expect(throws: JOSEError.invalidKey) { try JWK(kty: "EC", crv: "P-256", x: x + "=", y: y).publicKey() }
        #expect(throws: JOSEError.invalidKey) { try JWK(kty: "EC", crv: "P-256", x: x).publicKey() }
        #expect(throws: JOSEError.invalidKey) { try JWK(kty: "oct").publicKey() }
        #expect(throws: JOSEError.invalidKey) { try JWK(kty: "OKP", crv: "X25519", x: x).publicKey() }
        // 1024-bit RSA.
        let small = Base64URL.encode([0xc1] + [UInt8](repeating: 0x5a, count: 126) + [0x01])
        #expect(throws: JOSEError.invalidKey) { try JWK(kty: "RSA", n: small, e: "AQAB").publicKey() }
        // Wrong member types.
        #expect(throws: JOSEError.invalidKey) { try JWK(jsonBytes: Array(#"{"kty":"EC","crv":1}"#.utf8)) }
        #expect(throws: JOSEError.invalidKey) { try JWK(jsonBytes: Array(#"{"crv":"P-256"}"#.utf8)) }
        #expect(throws: JOSEError.duplicateJSONKey) { try JWK(jsonBytes: Array(#"{"kty":"EC","kty":"RSA"}"#.utf8)) }
        #expect(throws: JOSEError.notAJSONObject) { try JWK(jsonBytes: Array("[]".utf8)) }
    }

    /// Found by `make fuzz` (jwk target): "e":"ALAB" (00 B0 01) imported as the key with e = 0xB001,
    /// whose own JWK and thumbprint differ, so two JWK strings named one key with two thumbprints.
    /// RFC 7518 §2: a Base64urlUInt uses the minimum number of octets, so a leading zero is refused.
    @Test func rsaIntegersWithLeadingZeroOctetsAreRejected() throws {
        let padded = Base64URL.encode([0] + (try #require(Base64URL.decode(Self.rfc7638N))))
        for (n, e) in [(padded, "AQAB"), (Self.rfc7638N, "AAEAAQ"), (Self.rfc7638N, "ALAB"), (Self.rfc7638N, "")] {
            let jwk = try JWK(jsonBytes: Array(#"{"kty":"RSA","kid":"k","n":"\#(n)","e":"\#(e)"}"#.utf8))
            #expect(throws: JOSEError.invalidKey) { try jwk.publicKey() }
            #expect(throws: JOSEError.invalidKey) { try JWKSet(jsonBytes: Array(#"{"keys":[\#(String(decoding: jwk.jsonBytes(), as: UTF8.self))]}"#.utf8)) }
        }
        let minimal = try JWK(jsonBytes: Array(#"{"kty":"RSA","kid":"k","n":"\#(Self.rfc7638N)","e":"AQAB"}"#.utf8))
        #expect(try minimal.publicKey().type == .rsa(bits: 2048))
    }

    @Test func algorithmMustFitKey() throws {
        let key = try #require(TestKeys.p256)
        #expect(throws: JOSEError.algorithmNotForKey) { try JWK(publicKey: key.publicKey, keyID: "k", algorithm: .rs256) }
        var jwk = try JWK(publicKey: key.publicKey, keyID: "k", algorithm: .es256)
        jwk.alg = "RS256"
        #expect(throws: JOSEError.algorithmNotForKey) { try jwk.verificationKey() }
        jwk.alg = "HS256"
        #expect(throws: JOSEError.algorithmNotForKey) { try jwk.verificationKey() }
        jwk.alg = nil
        #expect(try jwk.verificationKey().algorithm == .es256)
    }

    @Test func jwkSetParsingAndLookup() throws {
        let ec = try JWK(publicKey: #require(TestKeys.p256).publicKey, keyID: "ec-1", algorithm: .es256)
        let ed = try JWK(publicKey: #require(TestKeys.ed25519).publicKey, keyID: "ed-1", algorithm: .edDSA)
        let set = JWKSet(keys: [ec, ed])
        let parsed = try JWKSet(jsonBytes: set.jsonBytes())
        #expect(parsed == set)
        #expect(parsed.key(withID: "ed-1") == ed)
        #expect(parsed.key(withID: "nope") == nil)
        #expect(try parsed.verificationKeys().map(\.keyID) == ["ec-1", "ed-1"])
        #expect(set.jsonBytes() == set.jsonBytes())
    }

    @Test func jwkSetSkipsUnsupportedAndRejectsBad() throws {
        let ec = String(decoding: try JWK(publicKey: #require(TestKeys.p256).publicKey, keyID: "ec-1", algorithm: .es256).jsonBytes(), as: UTF8.self)
        let unsupported = #"{"kty":"EC","crv":"P-384","kid":"p384","x":"AA","y":"AA"},{"kty":"RSA","kid":"enc","use":"enc","n":"AQAB","e":"AQAB"},{"kty":"RSA","kid":"rs512","alg":"RS512","n":"AQAB","e":"AQAB"}"#
        let set = try JWKSet(jsonBytes: Array(#"{"keys":[\#(unsupported),\#(ec)]}"#.utf8))
        #expect(set.keys.map(\.kid) == ["ec-1"])
        #expect(throws: JOSEError.duplicateKeyID) { try JWKSet(jsonBytes: Array(#"{"keys":[\#(ec),\#(ec)]}"#.utf8)) }
        #expect(throws: JOSEError.privateKeyMaterial) {
            try JWKSet(jsonBytes: Array(#"{"keys":[{"kty":"EC","crv":"P-256","x":"AA","y":"AA","d":"AA"}]}"#.utf8))
        }
        #expect(throws: JOSEError.invalidKey) {
            try JWKSet(jsonBytes: Array(#"{"keys":[{"kty":"EC","crv":"P-256","kid":"bad","x":"AA","y":"AA"}]}"#.utf8))
        }
        #expect(throws: JOSEError.invalidKey) { try JWKSet(jsonBytes: Array(#"{"kees":[]}"#.utf8)) }
    }
}
