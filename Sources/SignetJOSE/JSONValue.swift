/// A JSON value (RFC 8259) with a deterministic serializer and a strict parser.
///
/// Numbers that are written as integers and fit in 64 bits parse as `.int`; every other number
/// parses as `.number`. `.int(1)` and `.number(1)` are different values; use `doubleValue` to
/// compare numerically.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in `Int64`.
    case int(Int64)
    /// Any other number (fractional, exponent, or too large for `Int64`); always finite when parsed.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Keys are unique by construction; the parser rejects duplicates.
    case object([String: JSONValue])

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, if this is `.int`, or a `.number` with an integral value that fits `Int64`.
    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .number(let value):
            guard value.isFinite, value.rounded(.towardZero) == value,
                  value >= -9.223372036854775808e18, value < 9.223372036854775808e18 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// The numeric value of `.int` or `.number`.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The member named `key` of an object; nil for a missing member or a non-object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A Boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}
