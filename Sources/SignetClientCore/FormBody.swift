/// Strict `application/x-www-form-urlencoded` encoding for requests to providers.
public enum FormBody {
    /// Encodes pairs as `name=value&…`, percent-encoding everything outside RFC 3986 unreserved
    /// characters (`A-Z a-z 0-9 - . _ ~`): a space becomes `%20`, `+` becomes `%2B`.
    public static func encode(_ pairs: [(String, String)]) -> String {
        var out: [UInt8] = []
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
