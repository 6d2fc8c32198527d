import Dispatch
@testable import SignetCrypto
import Synchronization
import Testing

@Suite struct HMACTests {
    struct Vector: Sendable {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let sha256: String
        let sha384: String
        let sha512: String
    }

    static let largeKey = [UInt8](repeating: 0xaa, count: 131)

    // RFC 4231 §4.
    static let vectors: [Vector] = [
        Vector(name: "case 1", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
               sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
               sha384: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
               sha512: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
        Vector(name: "case 2", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
               sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
               sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
               sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
        Vector(name: "case 4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
               sha256: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
               sha384: "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
               sha512: "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
        Vector(name: "case 6", key: largeKey, data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
               sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
               sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
               sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
        Vector(name: "case 7", key: largeKey,
               data: Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
               sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
               sha384: "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
               sha512: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
    ]

    @Test(arguments: vectors.indices)
    func rfc4231(_ index: Int) {
        let v = Self.vectors[index]
        #expect(toHex(HMAC.sha256(key: v.key, message: v.data)) == v.sha256, "\(v.name)")
        #expect(toHex(HMAC.sha384(key: v.key, message: v.data)) == v.sha384, "\(v.name)")
        #expect(toHex(HMAC.sha512(key: v.key, message: v.data)) == v.sha512, "\(v.name)")
    }

    @Test func emptyKeyAndMessage() {
        // Python: hmac.new(b"", b"", "sha256").hexdigest()
        #expect(toHex(HMAC.sha256(key: [], message: [])) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}

/// A prepared key gives exactly the one-shot HMAC-SHA-256, for every key length (short, exactly a
/// block, longer than a block and hashed first) and for bytes and strings.
@Suite struct HMACKeyTests {
    @Test(arguments: HMACTests.vectors.indices)
    func rfc4231(_ index: Int) {
        let v = HMACTests.vectors[index]
        let key = HMACKey(sha256: v.key)
        #expect(toHex(key.mac(v.data)) == v.sha256, "\(v.name)")
        #expect(key.mac(v.data) == key.mac(v.data), "\(v.name): the templates are not used up")
    }

    @Test(arguments: [0, 1, 32, 63, 64, 65, 131])
    func sameAsOneShot(_ keyLength: Int) {
        let keyBytes = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let key = HMACKey(sha256: keyBytes)
        for message in ["", "sgr_abc", "client-secret:" + String(repeating: "é", count: 70)] {
            #expect(key.mac(message) == HMAC.sha256(key: keyBytes, message: Array(message.utf8)))
            #expect(key.mac(Array(message.utf8)) == HMAC.sha256(key: keyBytes, message: Array(message.utf8)))
        }
    }

    /// One prepared key is read by every request thread at once: the states are copied, never
    /// written, so concurrent messages each get the one-shot value.
    @Test func oneKeyServesManyThreadsAtOnce() {
        let keyBytes = Array("a shared token hash key".utf8)
        let key = HMACKey(sha256: keyBytes)
        let mismatches = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 {
                let message = Array("sgr_\(thread)_\(index)".utf8)
                if key.mac(message) != HMAC.sha256(key: keyBytes, message: message) { mismatches.add(1, ordering: .relaxed) }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }
}
