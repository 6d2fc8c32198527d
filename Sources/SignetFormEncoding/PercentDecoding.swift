/// Byte-level percent-decoding shared by form, query and path parsing.
public enum PercentDecoding {
    /// Value of an ASCII hex digit, or nil.
    @inlinable @inline(__always)
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte &- 0x30
        case 0x41...0x46: byte &- 0x41 &+ 10
        case 0x61...0x66: byte &- 0x61 &+ 10
        default: nil
        }
    }

    /// Decodes `bytes` (`%XX` strictly; `+` becomes a space when `plusIsSpace`) into a UTF-8 string.
    @inlinable
    public static func decode<C: Collection<UInt8>>(_ bytes: C, plusIsSpace: Bool) throws(FormError) -> String {
        var needsWork = false
        for byte in bytes where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) || byte >= 0x80 {
            needsWork = true
            break
        }
        if !needsWork { return String(decoding: bytes, as: UTF8.self) }   // pure ASCII, nothing to decode
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                guard first != bytes.endIndex else { throw .malformedPercentEncoding }
                let second = bytes.index(after: first)
                guard second != bytes.endIndex, let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) else {
                    throw .malformedPercentEncoding
                }
                out.append(high << 4 | low)
                index = bytes.index(after: second)
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
                index = bytes.index(after: index)
            }
        }
        guard let string = String(validating: out, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }
}
