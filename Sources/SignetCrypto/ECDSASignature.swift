/// Conversion between the two encodings of an ECDSA P-256 signature: the DER `ECDSA-Sig-Value`
/// that OpenSSL produces and consumes, and the fixed 64-byte `r || s` that JOSE uses
/// (RFC 7518 §3.4).
public enum ECDSASignature {
    /// The size in bytes of one P-256 scalar, and so of `r` and of `s` in the JOSE form.
    public static let scalarSize = 32

    /// Converts a JOSE `r || s` signature (exactly 64 bytes) to DER.
    ///
    /// - Throws: `CryptoError` if the input is not exactly 64 bytes.
    public static func joseToDER(_ jose: [UInt8]) throws -> [UInt8] {
        guard jose.count == 2 * scalarSize else {
            throw CryptoError("ES256 signature must be exactly 64 bytes, got \(jose.count)")
        }
        return DER.sequence(DER.unsignedInteger(jose[0..<scalarSize]),
                            DER.unsignedInteger(jose[scalarSize...]))
    }

    /// Converts a DER `ECDSA-Sig-Value` to the JOSE 64-byte `r || s` form, left-padding each scalar
    /// with zero bytes to 32 bytes.
    ///
    /// - Throws: `CryptoError` for malformed DER, trailing bytes, negative or oversized scalars.
    public static func derToJOSE(_ der: [UInt8]) throws -> [UInt8] {
        var outer = DER.Reader(der)
        guard let body = outer.read(tag: 0x30), outer.isAtEnd else {
            throw CryptoError("malformed ECDSA signature DER")
        }
        var inner = DER.Reader(Array(body))
        guard let r = inner.readUnsignedInteger(), let s = inner.readUnsignedInteger(), inner.isAtEnd,
              r.count <= scalarSize, s.count <= scalarSize else {
            throw CryptoError("malformed ECDSA signature DER")
        }
        var out = [UInt8](repeating: 0, count: 2 * scalarSize)
        out.replaceSubrange((scalarSize - r.count)..<scalarSize, with: r)
        out.replaceSubrange((2 * scalarSize - s.count)..<(2 * scalarSize), with: s)
        return out
    }
}
