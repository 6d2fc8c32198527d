import Testing
@testable import SignetCrypto

@Suite struct DigestTests {
    @Test func sha2OfABC() {
        // FIPS 180-2 Appendix B/C/D examples.
        #expect(toHex(Digest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(toHex(Digest.sha384(Array("abc".utf8))) == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(toHex(Digest.sha512(Array("abc".utf8))) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    @Test func sequencesHashLikeArrays() {
        let expected = Digest.sha256(Array("abc".utf8))
        #expect(Digest.sha256("abc".utf8) == expected)
        #expect(Digest.sha256(Array("xabc".utf8).dropFirst()) == expected)
        #expect(Digest.sha256(AnySequence(Array("abc".utf8))) == expected)
    }

    @Test func emptyInput() {
        #expect(toHex(Digest.sha256([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
