/// One CBOR data item (RFC 8949) of the kinds WebAuthn uses.
///
/// Decoded by `CBORValue.decode` (libcbor's decoder underneath), which refuses what WebAuthn's
/// CTAP2 encoding never produces: indefinite lengths, tags, floating-point and simple values other
/// than `false`, `true` and `null`, duplicate map keys, text that is not UTF-8.
public indirect enum CBORValue: Sendable, Hashable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1) whose value is `-1 - n`.
    case negative(UInt64)
    /// A byte string.
    case bytes([UInt8])
    /// A UTF-8 text string.
    case text(String)
    /// An array.
    case array([CBORValue])
    /// A map, in the order its entries were encoded.
    case map([CBORMapEntry])
    /// `false` or `true`.
    case bool(Bool)
    /// `null`.
    case null

    /// The value as an `Int64`, if it is an integer that fits.
    public var int64Value: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The bytes, if this is a byte string.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The text, if this is a text string.
    public var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The entries, if this is a map.
    public var mapValue: [CBORMapEntry]? {
        if case .map(let value) = self { return value }
        return nil
    }

    /// The value under `key` in a map; nil for a missing key or a non-map.
    public subscript(key: CBORValue) -> CBORValue? {
        mapValue?.first(where: { $0.key == key })?.value
    }

    /// The value under the text key `key` in a map.
    public subscript(text key: String) -> CBORValue? { self[.text(key)] }

    /// The value under the integer key `key` in a map (COSE labels).
    public subscript(label key: Int64) -> CBORValue? {
        self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }
}

/// One key and value of a CBOR map. A map to encode (a COSE key, an attestation object) is
/// written as a dictionary literal, which keeps its order: `[.text("fmt"): .text("none"), …]`.
public struct CBORMapEntry: Sendable, Hashable {
    /// The key.
    public let key: CBORValue
    /// The value.
    public let value: CBORValue
}

extension CBORValue: ExpressibleByDictionaryLiteral {
    /// A map with the literal's entries, in the literal's order.
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self = .map(elements.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }
}
