extension CBORValue {
    /// The RFC 8949 encoding with the shortest argument for every length and integer (§4.2.1's
    /// "preferred serialization"; map entries kept in their order). Tests and the fuzz target use
    /// it; the verifiers never re-encode what they check.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let n): Self.head(0, n, &out)
        case .negative(let n): Self.head(1, n, &out)
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count), &out)
            out += bytes
        case .text(let text):
            Self.head(3, UInt64(text.utf8.count), &out)
            out += text.utf8
        case .array(let items):
            Self.head(4, UInt64(items.count), &out)
            for item in items { item.encode(into: &out) }
        case .map(let entries):
            Self.head(5, UInt64(entries.count), &out)
            for entry in entries {
                entry.key.encode(into: &out)
                entry.value.encode(into: &out)
            }
        case .bool(let flag): out.append(flag ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64, _ out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xFF: out += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: out += [type | 25] + (0..<2).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
        case 0x1_0000...0xFFFF_FFFF: out += [type | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
        default: out += [type | 27] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
        }
    }
}
