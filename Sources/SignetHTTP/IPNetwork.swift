/// An address range in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`), or one address.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the range (host bits cleared).
    public let address: IPAddress
    /// The prefix length: 0...32 for IPv4, 0...128 for IPv6.
    public let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/PREFIX`. Host bits set under the prefix (`10.0.0.1/8`) are
    /// refused: such an entry is usually a typo for a different range.
    public init(_ text: String) throws(IPNetworkError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { throw .notAnAddress(text) }
        let bits = address.bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard (1...3).contains(parts[1].utf8.count), parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let value = Int(parts[1]), value <= bits else { throw .badPrefix(text) }
            prefix = value
        }
        guard IPNetwork.masked(address.bytes, prefix) == address.bytes else { throw .hostBitsSet(text) }
        self.address = address
        self.prefixLength = prefix
    }

    /// Whether `candidate` lies in the range (an IPv4 address never lies in an IPv6 range).
    public func contains(_ candidate: IPAddress) -> Bool {
        candidate.bytes.count == address.bytes.count && IPNetwork.masked(candidate.bytes, prefixLength) == address.bytes
    }

    /// `ADDRESS/PREFIX`.
    public var description: String { "\(address)/\(prefixLength)" }

    private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = min(8, max(0, prefix - index * 8))
            return keep == 8 ? byte : byte & ~(UInt8(0xFF) >> keep)
        }
    }
}

/// Why an `IPNetwork` could not be parsed.
public enum IPNetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The part before `/` is not an IPv4 or IPv6 literal.
    case notAnAddress(String)
    /// The prefix is not a number within the address's bits.
    case badPrefix(String)
    /// Bits are set after the prefix.
    case hostBitsSet(String)

    /// A short explanation that names the entry.
    public var description: String {
        switch self {
        case .notAnAddress(let text): "\"\(text)\" is not an IPv4 or IPv6 address or CIDR range"
        case .badPrefix(let text): "\"\(text)\" has a prefix length that is not 0-32 (IPv4) or 0-128 (IPv6)"
        case .hostBitsSet(let text): "\"\(text)\" has bits set after its prefix length (did you mean the range's first address?)"
        }
    }
}
