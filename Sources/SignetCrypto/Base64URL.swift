/// Strict unpadded base64url (RFC 4648 §5) as JOSE uses it (RFC 7515 §2, Appendix C).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value, or 0xff for bytes outside the alphabet.
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) {
            return encoded
        }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    private static func encode(buffer input: UnsafeBufferPointer<UInt8>) -> String {
        let outputCount = (input.count * 4 + 2) / 3
        return alphabet.withUnsafeBufferPointer { table in
            String(unsafeUninitializedCapacity: outputCount) { out in
                var i = 0
                var o = 0
                while i + 3 <= input.count {
                    let chunk = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                    out[o] = table[Int(chunk >> 18)]
                    out[o + 1] = table[Int(chunk >> 12 & 0x3f)]
                    out[o + 2] = table[Int(chunk >> 6 & 0x3f)]
                    out[o + 3] = table[Int(chunk & 0x3f)]
                    i += 3
                    o += 4
                }
                switch input.count - i {
                case 1:
                    let chunk = UInt32(input[i]) << 16
                    out[o] = table[Int(chunk >> 18)]
                    out[o + 1] = table[Int(chunk >> 12 & 0x3f)]
                    o += 2
                case 2:
                    let chunk = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                    out[o] = table[Int(chunk >> 18)]
                    out[o + 1] = table[Int(chunk >> 12 & 0x3f)]
                    out[o + 2] = table[Int(chunk >> 6 & 0x3f)]
                    o += 3
                default:
                    break
                }
                return o
            }
        }
    }

    /// Decodes unpadded base64url, or returns nil.
    ///
    /// Rejected: padding (`=`), whitespace, any byte outside `A–Z a–z 0–9 - _`, lengths with
    /// `count % 4 == 1`, and non-canonical encodings whose unused trailing bits are not zero
    /// (RFC 4648 §3.5), so each byte string has exactly one accepted encoding.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        if let decoded = string.utf8.withContiguousStorageIfAvailable({ decode(buffer: $0) }) {
            return decoded
        }
        return Array(string.utf8).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// Decodes unpadded base64url from ASCII bytes, or returns nil (same rules as `decode(_:)`).
    public static func decode(bytes: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = bytes.withContiguousStorageIfAvailable({ decode(buffer: $0) }) {
            return decoded
        }
        return Array(bytes).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    private static func decode(buffer input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let remainder = input.count % 4
        if remainder == 1 { return nil }
        let outputCount = input.count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        var valid = true
        let output = reverse.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
                var i = 0
                var o = 0
                var bad: UInt8 = 0
                while i + 4 <= input.count {
                    let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                    let c = table[Int(input[i + 2])], d = table[Int(input[i + 3])]
                    bad |= a | b | c | d
                    let chunk = UInt32(a & 0x3f) << 18 | UInt32(b & 0x3f) << 12 | UInt32(c & 0x3f) << 6 | UInt32(d & 0x3f)
                    out[o] = UInt8(truncatingIfNeeded: chunk >> 16)
                    out[o + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: chunk)
                    i += 4
                    o += 3
                }
                if remainder == 2 {
                    let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                    bad |= a | b
                    if b & 0x0f != 0 { bad |= 0x80 }  // non-canonical trailing bits
                    out[o] = (a & 0x3f) << 2 | (b & 0x3f) >> 4
                    o += 1
                } else if remainder == 3 {
                    let a = table[Int(input[i])], b = table[Int(input[i + 1])], c = table[Int(input[i + 2])]
                    bad |= a | b | c
                    if c & 0x03 != 0 { bad |= 0x80 }
                    out[o] = (a & 0x3f) << 2 | (b & 0x3f) >> 4
                    out[o + 1] = (b & 0x0f) << 4 | (c & 0x3f) >> 2
                    o += 2
                }
                // Valid sextets are < 64; the 0xff marker (and the non-canonical flag) set bit 7.
                valid = bad & 0xc0 == 0
                initialized = o
            }
        }
        return valid ? output : nil
    }
}
