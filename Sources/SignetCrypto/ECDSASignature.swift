/// Conversion between the two encodings of an ECDSA P-256 signature: the DER `ECDSA-Sig-Value`
/// that OpenSSL produces and consumes, and the fixed 64-byte `r || s` that JOSE uses
/// (RFC 7518 §3.4).
public enum ECDSASignature {
    /// The size in bytes of one P-256 scalar, and so of `r` and of `s` in the JOSE form.
    public static let scalarSize = 32
    /// The largest DER encoding of a P-256 signature: SEQUENCE of two 33-byte INTEGERs.
    static let maximumDERSize = 72

    /// Converts a JOSE `r || s` signature (exactly 64 bytes) to DER.
    ///
    /// - Throws: `CryptoError` if the input is not exactly 64 bytes.
    public static func joseToDER(_ jose: [UInt8]) throws -> [UInt8] {
        guard jose.count == 2 * scalarSize else {
            throw CryptoError("ES256 signature must be exactly 64 bytes, got \(jose.count)")
        }
        return jose.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: maximumDERSize) { out, count in
                count = writeDER(jose: input, into: out)
            }
        }
    }

    /// Converts a DER `ECDSA-Sig-Value` to the JOSE 64-byte `r || s` form, left-padding each scalar
    /// with zero bytes to 32 bytes.
    ///
    /// - Throws: `CryptoError` for malformed or non-minimal DER, trailing bytes, negative or
    ///   oversized scalars.
    public static func derToJOSE(_ der: [UInt8]) throws -> [UInt8] {
        var ok = false
        let jose = der.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: 2 * scalarSize) { out, count in
                ok = parseDER(input, into: out)
                count = 2 * scalarSize
            }
        }
        guard ok else { throw CryptoError("malformed ECDSA signature DER") }
        return jose
    }

    /// Writes the DER form of a 64-byte `r || s` into `out` (at least 72 bytes) and returns its
    /// length. No allocation: used on the verification hot path.
    static func writeDER(jose: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var position = 2
        for half in 0..<2 {
            let scalar = UnsafeBufferPointer(rebasing: jose[(half * scalarSize)..<((half + 1) * scalarSize)])
            var start = 0
            while start < scalarSize - 1, scalar[start] == 0 { start += 1 }
            let pad = scalar[start] & 0x80 != 0 ? 1 : 0
            out[position] = 0x02
            out[position + 1] = UInt8(scalarSize - start + pad)
            position += 2
            if pad == 1 {
                out[position] = 0
                position += 1
            }
            for index in start..<scalarSize {
                out[position] = scalar[index]
                position += 1
            }
        }
        out[0] = 0x30
        out[1] = UInt8(position - 2)
        return position
    }

    /// Strictly parses a DER `ECDSA-Sig-Value` into 64 bytes at `out`. Returns false (leaving
    /// `out` fully initialised with zeros or partial data) if the input is not a minimal DER
    /// SEQUENCE of two non-negative INTEGERs of at most 32 significant bytes.
    static func parseDER(_ der: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        out.initialize(repeating: 0)
        // For P-256 the content is at most 70 bytes, so only the short length form is valid.
        guard der.count >= 8, der[0] == 0x30, der[1] < 0x80, Int(der[1]) == der.count - 2 else { return false }
        var position = 2
        for half in 0..<2 {
            guard position + 2 <= der.count, der[position] == 0x02 else { return false }
            let length = Int(der[position + 1])
            position += 2
            guard length >= 1, length <= scalarSize + 1, position + length <= der.count else { return false }
            var start = position
            let end = position + length
            if der[start] & 0x80 != 0 { return false }  // negative
            if der[start] == 0, length > 1 {
                // A leading zero is allowed (and required) only before a byte with the high bit set.
                guard der[start + 1] & 0x80 != 0 else { return false }
                start += 1
            }
            let significant = end - start
            guard significant <= scalarSize else { return false }
            let base = half * scalarSize + scalarSize - significant
            for index in 0..<significant {
                out[base + index] = der[start + index]
            }
            position = end
        }
        return position == der.count
    }
}
