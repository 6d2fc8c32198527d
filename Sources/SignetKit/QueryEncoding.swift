import Foundation
import SignetClientCore

/// Strict `application/x-www-form-urlencoded` encoding and decoding for authorization URLs and
/// callbacks.
///
/// Encoding escapes everything outside the RFC 3986 unreserved set, so a `+` in a value can never
/// be read as a space (TOOLCHAIN-NOTES §9: `URLQueryItem` leaves `+` alone). Decoding turns `+`
/// into a space before percent-decoding, and refuses repeated names (RFC 6749 §3.1) and broken
/// escapes, which `URLComponents` would let through.
public enum QueryEncoding {
    /// `name=value&…`, every byte outside `A–Z a–z 0–9 - . _ ~` percent-encoded.
    public static func encode(_ pairs: [(String, String)]) -> String {
        FormBody.encode(pairs)
    }

    /// Percent-encodes one component strictly (SignetClientCore's form encoding).
    public static func escape(_ text: String) -> String { FormBody.encodeComponent(text) }

    /// Decodes a query string into a dictionary; nil when a name repeats, an escape is broken or
    /// the bytes are not UTF-8.
    public static func decode(_ query: some StringProtocol) -> [String: String]? {
        var result: [String: String] = [:]
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(pieces[0]), !name.isEmpty,
                  let value = pieces.count > 1 ? unescape(pieces[1]) : "" else { return nil }
            guard result[name] == nil else { return nil }
            result[name] = value
        }
        return result
    }

    private static func unescape(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
