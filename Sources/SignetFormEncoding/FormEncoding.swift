/// The one strict `application/x-www-form-urlencoded` encoder and decoder, for request bodies,
/// query strings and redirect URLs, on the server and in the clients.
public enum FormEncoding {
    /// Encodes pairs as `name=value&…`, percent-encoding everything outside RFC 3986 unreserved
    /// characters (`A-Z a-z 0-9 - . _ ~`); a space becomes `%20`, `+` becomes `%2B`.
    public static func encode(_ pairs: [(String, String)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 2 } * 2)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            append(pair.0, to: &out)
            out.append(UInt8(ascii: "="))
            append(pair.1, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-encodes one component with the same strict rule.
    public static func encodeComponent(_ string: String) -> String {
        var out: [UInt8] = []
        append(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes form-encoded bytes (a body, or a query string without its `?`) into pairs, in order,
    /// repeats kept: `+` becomes a space, `%XX` must be two hex digits, and every decoded name and
    /// value must be valid UTF-8, or it throws. Empty segments (`a=1&&b=2`) are skipped; a segment
    /// without `=` is a name with an empty value (`a&b=` gives `a=""`, `b=""`).
    @inlinable
    public static func decode(_ bytes: some Collection<UInt8>) throws(FormError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        guard !bytes.isEmpty else { return pairs }
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let segment = bytes[start..<end]
            if !segment.isEmpty {
                let name: String
                let value: String
                if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                    name = try PercentDecoding.decode(segment[segment.startIndex..<equals], plusIsSpace: true)
                    value = try PercentDecoding.decode(segment[segment.index(after: equals)...], plusIsSpace: true)
                } else {
                    name = try PercentDecoding.decode(segment, plusIsSpace: true)
                    value = ""
                }
                pairs.append((name: name, value: value))
            }
            guard end != bytes.endIndex else { break }
            start = bytes.index(after: end)
        }
        return pairs
    }

    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func append(_ string: String, to out: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
    }
}
