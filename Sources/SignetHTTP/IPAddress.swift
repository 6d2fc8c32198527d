import Foundation

/// An IPv4 or IPv6 address as 4 or 16 bytes, parsed from a literal with `inet_pton`.
///
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is the IPv4 address it maps, so a
/// dual-stack listener and a proxy's header name one client the same way.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 bytes (IPv6), network order.
    public let bytes: [UInt8]

    /// Parses an IPv4 literal (`192.0.2.1`) or IPv6 literal (`2001:db8::1`, no brackets, no zone).
    public init?(_ literal: some StringProtocol) {
        let text = String(literal)
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if text.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }) {
            guard inet_pton(AF_INET, text, &v4) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        if all[0..<10].allSatisfy({ $0 == 0 }) && all[10] == 0xFF && all[11] == 0xFF {
            bytes = Array(all[12..<16])
        } else {
            bytes = all
        }
    }

    /// True for an IPv4 address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// The canonical literal (`inet_ntop`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        var copy = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        let written = copy.withUnsafeMutableBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The key under which this client is counted by rate limits: an IPv4 address itself, an
    /// IPv6 address by its /64 (RFC 6177 / RFC 4291 §2.5.4: one site gets at least a /64, so one
    /// client can pick from 2^64 addresses inside it), written `2001:db8:1:2::/64`.
    public var rateLimitKey: String {
        guard !isIPv4 else { return description }
        let prefix = IPAddress(bytes: Array(bytes[0..<8]) + Array(repeating: 0, count: 8))
        return prefix.description + "/64"
    }

    init(bytes: [UInt8]) { self.bytes = bytes }
}
