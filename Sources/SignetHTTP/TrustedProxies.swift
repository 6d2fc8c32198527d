import Foundation

/// The proxies whose forwarding headers are believed, and the reading of those headers.
///
/// Only when the connection's peer is in the list are `Forwarded` (RFC 7239) or, without it,
/// `X-Forwarded-For` and `X-Forwarded-Proto` read; from any other peer they change nothing. The
/// chain is walked from the right (the entry the nearest proxy appended), skipping hops that are
/// themselves trusted proxies; the first other address is the client. Entries to its left were
/// written by the client and are never read.
public struct TrustedProxies: Sendable, Equatable {
    /// The trusted ranges.
    public let networks: [IPNetwork]

    /// No proxy is trusted: the peer is always the client.
    public static let none = TrustedProxies(networks: [])

    /// Trusts these ranges.
    public init(networks: [IPNetwork]) { self.networks = networks }

    /// Parses a list of addresses and CIDR ranges (the `http.trusted_proxies` setting).
    public init(_ entries: [String]) throws(IPNetworkError) {
        var networks: [IPNetwork] = []
        for entry in entries { networks.append(try IPNetwork(entry)) }
        self.networks = networks
    }

    /// Whether `address` is a trusted proxy.
    public func trusts(_ address: IPAddress) -> Bool { networks.contains { $0.contains(address) } }

    /// The client as the proxies report it: its address literal and, when a trusted proxy says
    /// which scheme the client used, whether that was https (nil: the proxies did not say).
    public func client(peer: String, headers: HTTPHeaders) -> (address: String, isSecure: Bool?) {
        guard !networks.isEmpty, let peerAddress = IPAddress(peer), trusts(peerAddress) else { return (peer, nil) }
        let hops: [(address: IPAddress?, proto: String?)]
        let forwarded = headers.values("Forwarded")
        if !forwarded.isEmpty {
            hops = forwarded.flatMap { TrustedProxies.forwardedElements($0) }
        } else {
            let protos = headers.values("X-Forwarded-Proto").flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces() }
            let addresses = headers.values("X-Forwarded-For").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            // X-Forwarded-Proto has no chain that proxies agree on: its last value is the one the
            // nearest trusted proxy set.
            hops = addresses.map { (TrustedProxies.nodeAddress($0.trimmingASCIISpaces()), protos.last) }
        }
        var client = (address: peerAddress, proto: String?.none)
        for hop in hops.reversed() {
            // An entry a trusted proxy wrote but that names no address (`unknown`, an obfuscated
            // name, garbage): the client cannot be told, so it stays the proxy that wrote it.
            guard let address = hop.address else { break }
            client = (address, hop.proto)
            if !trusts(address) { break }
        }
        let isSecure = client.proto.map { HTTPHeaders.equalsIgnoringCase($0, "https") }
        return (client.address.description, isSecure)
    }

    /// RFC 7239 §4: `Forwarded: for=192.0.2.1;proto=https, for="[2001:db8::1]:4711"` as one
    /// (for, proto) per element. Values may be tokens or quoted strings.
    static func forwardedElements(_ header: String) -> [(address: IPAddress?, proto: String?)] {
        splitOutsideQuotes(header, on: ",").map { element in
            var address: IPAddress?, proto: String?
            for pair in splitOutsideQuotes(element, on: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingASCIISpaces()
                var value = pair[pair.index(after: equals)...].trimmingASCIISpaces()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
                }
                if HTTPHeaders.equalsIgnoringCase(name, "for") { address = nodeAddress(value) }
                if HTTPHeaders.equalsIgnoringCase(name, "proto") { proto = value }
            }
            return (address, proto)
        }
    }

    /// A node: `192.0.2.1`, `192.0.2.1:80`, `[2001:db8::1]`, `[2001:db8::1]:80`, or a bare IPv6
    /// literal (as `X-Forwarded-For` writes it); anything else (`unknown`, `_hidden`) is nil.
    static func nodeAddress(_ text: String) -> IPAddress? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            return IPAddress(text[text.index(after: text.startIndex)..<close])
        }
        if let address = IPAddress(text) { return address }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return IPAddress(parts[0]).flatMap { $0.isIPv4 ? $0 : nil }
    }

    private static func splitOutsideQuotes(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = [], current = "", quoted = false, escaped = false
        for character in text {
            if escaped { escaped = false; current.append(character); continue }
            if quoted && character == "\\" { escaped = true; current.append(character); continue }
            if character == "\"" { quoted.toggle() }
            if character == separator && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}
