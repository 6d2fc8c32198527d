import SignetCrypto
import SignetTesting
import Testing
@testable import SignetJOSE

@Suite(.endToEndLimit) struct Base64URLTests {
    @Test func rfc4648Vectors() {
        // RFC 4648 §10 with the URL alphabet and no padding.
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func urlAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
        // RFC 7515 Appendix C example.
        #expect(Base64URL.encode([3, 236, 255, 224, 193]) == "A-z_4ME")
    }

    @Test func allByteValuesRoundTrip() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64URL.decode(Base64URL.encode(all)) == all)
    }

    @Test func strictRejections() {
        #expect(Base64URL.decode("Zg==") == nil)      // padding
        #expect(Base64URL.decode("Zm9v ") == nil)     // whitespace
        #expect(Base64URL.decode(" Zm9v") == nil)
        #expect(Base64URL.decode("Zm\n9v") == nil)
        #expect(Base64URL.decode("Zm9+") == nil)      // standard alphabet
        #expect(Base64URL.decode("Zm9/") == nil)
        #expect(Base64URL.decode("Zm9v.") == nil)
        #expect(Base64URL.decode("Z") == nil)         // impossible length
        #expect(Base64URL.decode("Zm9vY") == nil)
        #expect(Base64URL.decode("Zh") == nil)        // non-canonical trailing bits ("Zg" is canonical)
        #expect(Base64URL.decode("Zm9") == nil)       // "Zm8" is canonical
        #expect(Base64URL.decode("Zm9vé") == nil)     // non-ASCII
    }

    @Test func substringsDecode() {
        let token = "Zm9v.YmFy"
        let parts = token.split(separator: ".")
        #expect(Base64URL.decode(parts[1]) == Array("bar".utf8))
    }
}
