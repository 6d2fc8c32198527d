import Testing
@testable import SignetCrypto

@Suite struct AESGCMTests {
    let key = SecureRandom.bytes(32)

    @Test func roundTrip() throws {
        let plaintext = Array("signing key material".utf8)
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: [1, 2])
        #expect(sealed.count == 12 + plaintext.count + 16)
        #expect(try AESGCM.open(sealed, key: key, associatedData: [1, 2]) == plaintext)
        #expect(try AESGCM.open(AESGCM.seal([], key: key), key: key) == [])
        // Fresh nonces: sealing twice gives different outputs.
        #expect(try AESGCM.seal(plaintext, key: key) != AESGCM.seal(plaintext, key: key))
    }

    @Test func tamperingIsDetected() throws {
        let sealed = try AESGCM.seal(Array("secret".utf8), key: key, associatedData: [9])
        for index in [0, 11, 12, sealed.count - 17, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: CryptoError.self) { try AESGCM.open(tampered, key: key, associatedData: [9]) }
        }
        #expect(throws: CryptoError.self) { try AESGCM.open(sealed, key: key, associatedData: [8]) }
        #expect(throws: CryptoError.self) { try AESGCM.open(sealed, key: key) }
        #expect(throws: CryptoError.self) { try AESGCM.open(Array(sealed.dropLast()), key: key, associatedData: [9]) }
        #expect(throws: CryptoError.self) { try AESGCM.open(Array(sealed.prefix(27)), key: key, associatedData: [9]) }
    }

    @Test func wrongKeyIsRejected() throws {
        let sealed = try AESGCM.seal([1, 2, 3], key: key)
        #expect(throws: CryptoError.self) { try AESGCM.open(sealed, key: SecureRandom.bytes(32)) }
        #expect(throws: CryptoError.self) { try AESGCM.seal([1], key: SecureRandom.bytes(16)) }
        #expect(throws: CryptoError.self) { try AESGCM.open(sealed, key: Array(key.prefix(31))) }
    }

    @Test func gcmSpecTestCase16() throws {
        // McGrew & Viega, "The Galois/Counter Mode of Operation", test case 16 (AES-256).
        let key = hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let plaintext = hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let nonce = hex("cafebabefacedbaddecaf888")
        let expected = nonce
            + hex("522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")
            + hex("76fc6ece0f4e1768cddf8853bb2d551b")
        #expect(try AESGCM.seal(plaintext, key: key, nonce: nonce, associatedData: aad) == expected)
        #expect(try AESGCM.open(expected, key: key, associatedData: aad) == plaintext)
    }
}
