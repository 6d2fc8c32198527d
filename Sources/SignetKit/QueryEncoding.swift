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
        FormEncoding.encode(pairs)
    }

    /// Percent-encodes one component strictly (the shared `FormEncoding`).
    public static func escape(_ text: String) -> String { FormEncoding.encodeComponent(text) }

    /// Decodes a query string into a dictionary; nil when a name is empty or repeats, an escape is
    /// broken or the bytes are not UTF-8.
    public static func decode(_ query: some StringProtocol) -> [String: String]? {
        guard let pairs = try? FormEncoding.decode(Array(query.utf8)) else { return nil }
        var result: [String: String] = [:]
        for (name, value) in pairs {
            guard !name.isEmpty, result[name] == nil else { return nil }
            result[name] = value
        }
        return result
    }
}
