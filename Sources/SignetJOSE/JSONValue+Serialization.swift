extension JSONValue {
    /// Serializes deterministically: object members sorted by the UTF-8 bytes of their names, no
    /// insignificant whitespace, `/` not escaped, non-ASCII written as UTF-8, control characters
    /// escaped, integral numbers without a fraction. Non-finite numbers (which JSON cannot
    /// represent) are written as `null`.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(into: &out)
        return out
    }

    /// `serialized()` as a `String`.
    public func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            out.append(contentsOf: String(value).utf8)
        case .number(let value):
            Self.writeNumber(value, into: &out)
        case .string(let value):
            Self.writeString(value, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // The members in the order of their names' UTF-8 bytes, each value taken with its name
            // (no second lookup by name).
            let sorted = members.sorted { Self.utf8Precedes($0.key, $1.key) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s (byte-wise, a prefix first): the order
    /// `a.utf8.lexicographicallyPrecedes(b.utf8)` gives, compared on the contiguous bytes rather
    /// than through the generic sequence iterators (every claims set is sorted on each token issued).
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
    }

    static func writeNumber(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        // Integral values within the exactly representable range print as integers.
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992 {
            out.append(contentsOf: String(Int64(value)).utf8)
            return
        }
        // Swift's shortest round-trip form ("0.1", "1e+30", "5e-324") is valid JSON.
        out.append(contentsOf: value.description.utf8)
    }

    /// Writes `value` as a JSON string. Runs of bytes that need no escape (nearly every string
    /// Signet writes: tokens, ids, URLs, claims) are appended whole, not byte by byte, and found
    /// eight bytes at a time (a token response writes over a kilobyte of such strings).
    static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                if index + 8 <= bytes.count,
                   !needsEscape(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    writeEscape(byte, into: &out)
                    runStart = index + 1
                }
                index += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\\` (the bytes a
    /// JSON string escapes); exact, from the usual zero-byte test: `(x - 0x01…) & ~x & 0x80…` is
    /// nonzero when some byte of `x` is zero, and with `0x20…` subtracted when some byte is below 0x20.
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let below = (word &- ones &* 0x20) & ~word
        let zeros = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return (below | zeros) & highs != 0
    }

    /// The escape of one byte that JSON strings cannot hold as it is (RFC 8259 §7).
    private static func writeEscape(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0a: out.append(UInt8(ascii: "n"))
        case 0x0d: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0c: out.append(UInt8(ascii: "f"))
        default:
            let hex: StaticString = "0123456789abcdef"
            out.append(UInt8(ascii: "u"))
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "0"))
            out.append(hex.utf8Start[Int(byte >> 4)])
            out.append(hex.utf8Start[Int(byte & 0x0f)])
        }
    }
}
