import Testing
@testable import SignetCrypto

@Suite struct ECDSASignatureTests {
    @Test func leadingZeroBytesArePadded() throws {
        // r has one leading zero byte (31 significant bytes); s has its high bit set (DER adds 0x00).
        let r = [UInt8](repeating: 0, count: 1) + [UInt8](repeating: 0x11, count: 31)
        let s = [UInt8](repeating: 0x80, count: 32)
        let der = try ECDSASignature.joseToDER(r + s)
        #expect(der == [0x30, 0x44, 0x02, 0x1f] + r.dropFirst() + [0x02, 0x21, 0x00] + s)
        #expect(try ECDSASignature.derToJOSE(der) == r + s)
    }

    @Test func manyLeadingZeros() throws {
        let r = [UInt8](repeating: 0, count: 30) + [0x01, 0x02]
        let s = [UInt8](repeating: 0, count: 31) + [0x7f]
        let der = try ECDSASignature.joseToDER(r + s)
        #expect(der == [0x30, 0x07, 0x02, 0x02, 0x01, 0x02, 0x02, 0x01, 0x7f])
        #expect(try ECDSASignature.derToJOSE(der) == r + s)
    }

    @Test func wrongLengthsAndMalformedDERAreRejected() {
        #expect(throws: CryptoError.self) { try ECDSASignature.joseToDER([UInt8](repeating: 1, count: 63)) }
        #expect(throws: CryptoError.self) { try ECDSASignature.joseToDER([UInt8](repeating: 1, count: 65)) }
        #expect(throws: CryptoError.self) { try ECDSASignature.derToJOSE([]) }
        // Trailing byte.
        #expect(throws: CryptoError.self) { try ECDSASignature.derToJOSE([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]) }
        // Negative integer.
        #expect(throws: CryptoError.self) { try ECDSASignature.derToJOSE([0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01]) }
        // Non-minimal integer (unneeded leading zero).
        #expect(throws: CryptoError.self) { try ECDSASignature.derToJOSE([0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01]) }
        // Scalar longer than 32 bytes.
        let big = [UInt8](repeating: 0x11, count: 33)
        #expect(throws: CryptoError.self) { try ECDSASignature.derToJOSE([0x30, 0x26, 0x02, 0x21] + big + [0x02, 0x01, 0x01]) }
        // Length beyond the buffer.
        #expect(throws: CryptoError.self) { try ECDSASignature.derToJOSE([0x30, 0x7f, 0x02, 0x01, 0x01]) }
    }

    @Test func openSSLSignaturesAlwaysConvertTo64Bytes() throws {
        let key = try #require(SharedKeys.p256)
        for index in 0..<200 {
            let signature = try key.sign([UInt8(index & 0xff)], algorithm: .es256)
            #expect(signature.count == 64)
        }
    }
}
