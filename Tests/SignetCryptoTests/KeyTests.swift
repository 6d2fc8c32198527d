import Testing
@testable import SignetCrypto

@Suite struct KeyTests {
    @Test func generateAndReloadPKCS8() throws {
        for key in [SharedKeys.rsa, SharedKeys.p256, SharedKeys.ed25519] {
            let key = try #require(key)
            let reloaded = try PrivateKey(pkcs8DER: key.pkcs8DER)
            #expect(reloaded.type == key.type)
            #expect(reloaded.publicKey == key.publicKey)
            let algorithm = SignatureAlgorithm.allCases.first { $0.fits(key.type) } ?? .edDSA
            let signature = try reloaded.sign([1, 2, 3], algorithm: algorithm)
            #expect(key.publicKey.verify(signature: signature, message: [1, 2, 3], algorithm: algorithm))
        }
    }

    @Test func typesAndComponents() throws {
        let rsa = try #require(SharedKeys.rsa)
        let p256 = try #require(SharedKeys.p256)
        let ed = try #require(SharedKeys.ed25519)
        #expect(rsa.type == .rsa(bits: 2048))
        #expect(p256.type == .p256)
        #expect(ed.type == .ed25519)
        #expect(rsa.publicKey.rsaComponents?.n.count == 256)
        #expect(rsa.publicKey.rsaComponents?.e == [1, 0, 1])
        #expect(rsa.publicKey.p256Coordinates == nil)
        #expect(p256.publicKey.rsaComponents == nil)
        #expect(p256.publicKey.p256Coordinates?.x.count == 32)
        #expect(ed.publicKey.ed25519Raw?.count == 32)
        #expect(p256.publicKey.ed25519Raw == nil)
        // Components rebuild the same key.
        let n = try #require(rsa.publicKey.rsaComponents)
        #expect(try PublicKey(rsaModulus: n.n, exponent: n.e) == rsa.publicKey)
        #expect(try PublicKey(rsaModulus: [0, 0] + n.n, exponent: n.e) == rsa.publicKey)
        let xy = try #require(p256.publicKey.p256Coordinates)
        #expect(try PublicKey(p256X: xy.x, y: xy.y) == p256.publicKey)
        #expect(try PublicKey(ed25519: #require(ed.publicKey.ed25519Raw)) == ed.publicKey)
        #expect(try PublicKey(spkiDER: p256.publicKey.spkiDER) == p256.publicKey)
    }

    @Test func descriptionsAreRedacted() throws {
        let key = try #require(SharedKeys.p256)
        #expect(key.description == "PrivateKey(P-256, <redacted>)")
        #expect(String(describing: key.publicKey) == "PublicKey(P-256)")
    }

    @Test func smallRSAIsRejected() throws {
        #expect(throws: CryptoError.self) { try PrivateKey.generate(.rsa(bits: 1024)) }
        #expect(throws: CryptoError.self) { try PrivateKey.generate(.rsa(bits: 2047)) }
        // A 1024-bit modulus (top bit set) with e = 65537.
        let modulus = [UInt8(0xc1)] + [UInt8](repeating: 0x5a, count: 126) + [0x01]
        #expect(throws: CryptoError.self) { try PublicKey(rsaModulus: modulus, exponent: [1, 0, 1]) }
        // 2047 bits: still too small.
        let short = [UInt8(0x7f)] + [UInt8](repeating: 0x5a, count: 254) + [0x01]
        #expect(throws: CryptoError.self) { try PublicKey(rsaModulus: short, exponent: [1, 0, 1]) }
    }

    @Test func badRSAExponentsAreRejected() throws {
        let n = try #require(SharedKeys.rsa?.publicKey.rsaComponents?.n)
        #expect(throws: CryptoError.self) { try PublicKey(rsaModulus: n, exponent: []) }
        #expect(throws: CryptoError.self) { try PublicKey(rsaModulus: n, exponent: [1]) }
        #expect(throws: CryptoError.self) { try PublicKey(rsaModulus: n, exponent: [1, 0, 0]) }
        #expect(throws: CryptoError.self) { try PublicKey(rsaModulus: n, exponent: [UInt8](repeating: 1, count: 9)) }
    }

    @Test func invalidECPointsAreRejected() throws {
        let xy = try #require(SharedKeys.p256?.publicKey.p256Coordinates)
        var y = xy.y
        y[31] ^= 1
        #expect(throws: CryptoError.self) { try PublicKey(p256X: xy.x, y: y) }
        #expect(throws: CryptoError.self) { try PublicKey(p256X: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try PublicKey(p256X: Array(xy.x.dropFirst()), y: xy.y) }
        #expect(throws: CryptoError.self) { try PublicKey(p256X: [0] + xy.x, y: xy.y) }
        // Coordinates >= p are not field elements.
        #expect(throws: CryptoError.self) { try PublicKey(p256X: [UInt8](repeating: 0xff, count: 32), y: xy.y) }
    }

    @Test func malformedEncodingsAreRejected() throws {
        #expect(throws: CryptoError.self) { try PrivateKey(pkcs8DER: []) }
        #expect(throws: CryptoError.self) { try PrivateKey(pkcs8DER: [0x30, 0x03, 0x02, 0x01, 0x00]) }
        let der = try #require(SharedKeys.ed25519?.pkcs8DER)
        #expect(throws: CryptoError.self) { try PrivateKey(pkcs8DER: der + [0]) }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: []) }
        let spki = try #require(SharedKeys.ed25519?.publicKey.spkiDER)
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: spki + [0]) }
        #expect(throws: CryptoError.self) { try PublicKey(ed25519: [UInt8](repeating: 1, count: 31)) }
    }

    @Test func otherCurvesAreRejected() throws {
        // secp256k1 SubjectPublicKeyInfo (generator point), same size as P-256 but a different curve.
        let secp256k1 = hex("3056301006072a8648ce3d020106052b8104000a034200"
            + "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
            + "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8")
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: secp256k1) }
    }
}
