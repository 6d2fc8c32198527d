import Testing
@testable import SignetCrypto

@Suite struct SignatureTests {
    static let message = Array("eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIn0".utf8)

    // RFC 8032 §7.1 TEST 1–3.
    @Test(arguments: [
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ])
    func rfc8032Ed25519(secret: String, publicKey: String, message: String, signature: String) throws {
        let key = try PrivateKey(pkcs8DER: ed25519PKCS8(seed: hex(secret)))
        #expect(key.type == .ed25519)
        #expect(key.publicKey.ed25519Raw == hex(publicKey))
        let signed = try key.sign(hex(message), algorithm: .edDSA)
        #expect(toHex(signed) == signature)
        let verifier = try PublicKey(ed25519: hex(publicKey))
        #expect(verifier.verify(signature: signed, message: hex(message), algorithm: .edDSA))
        #expect(!verifier.verify(signature: signed, message: hex(message) + [0], algorithm: .edDSA))
    }

    @Test func rfc7515A2RS256IsExact() throws {
        let key = try RFC7515A2.privateKey()
        #expect(key.type == .rsa(bits: 2048))
        let signature = try key.sign(Array(RFC7515A2.signingInput.utf8), algorithm: .rs256)
        #expect(signature == b64u(RFC7515A2.signature))
        let publicKey = try PublicKey(rsaModulus: b64u(RFC7515A2.n), exponent: b64u(RFC7515A2.e))
        #expect(publicKey == key.publicKey)
        #expect(publicKey.verify(signature: signature, message: Array(RFC7515A2.signingInput.utf8), algorithm: .rs256))
        #expect(publicKey.rsaComponents?.n == b64u(RFC7515A2.n))
        #expect(publicKey.rsaComponents?.e == [1, 0, 1])
    }

    @Test func rfc7515A3ES256Verifies() throws {
        let publicKey = try PublicKey(p256X: b64u(RFC7515A3.x), y: b64u(RFC7515A3.y))
        let message = Array(RFC7515A3.signingInput.utf8)
        let signature = b64u(RFC7515A3.signature)
        #expect(publicKey.verify(signature: signature, message: message, algorithm: .es256))
        var tampered = signature
        tampered[10] ^= 1
        #expect(!publicKey.verify(signature: tampered, message: message, algorithm: .es256))
        #expect(publicKey.p256Coordinates?.x == b64u(RFC7515A3.x))
        #expect(publicKey.p256Coordinates?.y == b64u(RFC7515A3.y))
        // The matching private key signs verifiable (randomised) signatures.
        let privateKey = try PrivateKey(pkcs8DER: p256PKCS8(d: b64u(RFC7515A3.d), x: b64u(RFC7515A3.x), y: b64u(RFC7515A3.y)))
        let fresh = try privateKey.sign(message, algorithm: .es256)
        #expect(fresh.count == 64)
        #expect(fresh != signature)
        #expect(publicKey.verify(signature: fresh, message: message, algorithm: .es256))
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func roundTripAndTamper(_ algorithm: SignatureAlgorithm) throws {
        let key = try #require(Self.key(for: algorithm))
        let signature = try key.sign(Self.message, algorithm: algorithm)
        #expect(key.publicKey.verify(signature: signature, message: Self.message, algorithm: algorithm))
        var badSignature = signature
        badSignature[badSignature.count / 2] ^= 0x40
        #expect(!key.publicKey.verify(signature: badSignature, message: Self.message, algorithm: algorithm))
        var badMessage = Self.message
        badMessage[3] ^= 1
        #expect(!key.publicKey.verify(signature: signature, message: badMessage, algorithm: algorithm))
        #expect(!key.publicKey.verify(signature: [], message: Self.message, algorithm: algorithm))
        #expect(!key.publicKey.verify(signature: signature + [0], message: Self.message, algorithm: algorithm))
        #expect(!key.publicKey.verify(signature: Array(signature.dropLast()), message: Self.message, algorithm: algorithm))
        // Another key of the same type does not verify it.
        let other = try PrivateKey.generate(algorithm == .es256 ? .p256 : .ed25519)
        #expect(!other.publicKey.verify(signature: signature, message: Self.message, algorithm: algorithm))
    }

    @Test func ps256IsRandomisedWithSHA256Salt() throws {
        let key = try #require(SharedKeys.rsa)
        let a = try key.sign(Self.message, algorithm: .ps256)
        let b = try key.sign(Self.message, algorithm: .ps256)
        #expect(a != b)
        #expect(a.count == 256)
        // A PS256 signature is not an RS256 signature and vice versa.
        #expect(!key.publicKey.verify(signature: a, message: Self.message, algorithm: .rs256))
        let rs = try key.sign(Self.message, algorithm: .rs256)
        #expect(!key.publicKey.verify(signature: rs, message: Self.message, algorithm: .ps256))
    }

    @Test func wrongAlgorithmForKeyIsRejected() throws {
        let rsa = try #require(SharedKeys.rsa)
        let p256 = try #require(SharedKeys.p256)
        let ed = try #require(SharedKeys.ed25519)
        #expect(throws: CryptoError.self) { try rsa.sign(Self.message, algorithm: .es256) }
        #expect(throws: CryptoError.self) { try rsa.sign(Self.message, algorithm: .edDSA) }
        #expect(throws: CryptoError.self) { try p256.sign(Self.message, algorithm: .rs256) }
        #expect(throws: CryptoError.self) { try p256.sign(Self.message, algorithm: .ps256) }
        #expect(throws: CryptoError.self) { try p256.sign(Self.message, algorithm: .edDSA) }
        #expect(throws: CryptoError.self) { try ed.sign(Self.message, algorithm: .es256) }
        #expect(throws: CryptoError.self) { try ed.sign(Self.message, algorithm: .rs256) }
        let esSig = try p256.sign(Self.message, algorithm: .es256)
        let edSig = try ed.sign(Self.message, algorithm: .edDSA)
        #expect(!p256.publicKey.verify(signature: edSig, message: Self.message, algorithm: .edDSA))
        #expect(!ed.publicKey.verify(signature: esSig, message: Self.message, algorithm: .es256))
        #expect(!rsa.publicKey.verify(signature: esSig, message: Self.message, algorithm: .es256))
    }

    @Test func es256SignatureLengthsOffByOneAreRejected() throws {
        let key = try #require(SharedKeys.p256)
        let signature = try key.sign(Self.message, algorithm: .es256)
        #expect(signature.count == 64)
        #expect(!key.publicKey.verify(signature: Array(signature.dropLast()), message: Self.message, algorithm: .es256))
        #expect(!key.publicKey.verify(signature: signature + [0], message: Self.message, algorithm: .es256))
        #expect(!key.publicKey.verify(signature: [0] + signature, message: Self.message, algorithm: .es256))
        // A DER signature is not accepted where JOSE r||s is required.
        let der = try ECDSASignature.joseToDER(signature)
        #expect(!key.publicKey.verify(signature: der, message: Self.message, algorithm: .es256))
        // r = s = 0 is never valid.
        #expect(!key.publicKey.verify(signature: [UInt8](repeating: 0, count: 64), message: Self.message, algorithm: .es256))
    }

    @Test func emptyMessage() throws {
        for algorithm in SignatureAlgorithm.allCases {
            let key = try #require(Self.key(for: algorithm))
            let signature = try key.sign([], algorithm: algorithm)
            #expect(key.publicKey.verify(signature: signature, message: [], algorithm: algorithm))
        }
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func concurrentSigningAndVerifying(_ algorithm: SignatureAlgorithm) async throws {
        // One key and its shared context templates used from many tasks at once.
        let key = try #require(Self.key(for: algorithm))
        let rounds = algorithm == .rs256 || algorithm == .ps256 ? 5 : 40
        let ok = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let message = Self.message + [UInt8(index)]
                    for _ in 0..<rounds {
                        guard let sig = try? key.sign(message, algorithm: algorithm),
                              key.publicKey.verify(signature: sig, message: message, algorithm: algorithm) else { return false }
                    }
                    return true
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(ok)
    }

    static func key(for algorithm: SignatureAlgorithm) -> PrivateKey? {
        switch algorithm {
        case .rs256, .ps256: SharedKeys.rsa
        case .es256: SharedKeys.p256
        case .edDSA: SharedKeys.ed25519
        }
    }
}
