/// An ordered multimap of form parameters, decoded from `application/x-www-form-urlencoded` bytes
/// or a URL query string.
///
/// The parser is SignetFormEncoding's `FormEncoding.decode`, on bytes: `+` becomes a space, `%XX`
/// must be two hex digits, and every decoded name and value must be valid UTF-8; anything else throws. Empty segments (`a=1&&b=2`) are
/// skipped; a segment without `=` is a name with an empty value (`a&b=` gives `a=""`, `b=""`).
public struct FormFields: Sendable, Equatable, CustomStringConvertible {
    /// The parameters, in the order they appeared.
    public private(set) var pairs: [(name: String, value: String)]

    /// No parameters.
    public init() { pairs = [] }

    /// Parameters from already-decoded pairs, in order.
    public init(_ pairs: [(String, String)]) { self.pairs = pairs.map { (name: $0.0, value: $0.1) } }

    /// Parses form-encoded bytes (a body, or a query string without its `?`).
    public static func parse(_ bytes: some Collection<UInt8>) throws(FormError) -> FormFields {
        var fields = FormFields()
        fields.pairs = try FormEncoding.decode(bytes)
        return fields
    }

    /// Parses a form-encoded string (e.g. a raw query).
    public static func parse(_ string: String) throws(FormError) -> FormFields {
        try parse(Array(string.utf8))
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// The first value of `name`, or nil.
    public func first(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// The value of `name`, nil if absent; throws `.repeated(name)` if it appears more than once.
    public func single(_ name: String) throws(FormError) -> String? {
        var found: String?
        for pair in pairs where pair.name == name {
            if found != nil { throw .repeated(name) }
            found = pair.value
        }
        return found
    }

    /// Names that appear more than once.
    public var repeatedNames: Set<String> {
        var seen = Set<String>(), repeated = Set<String>()
        for pair in pairs where !seen.insert(pair.name).inserted { repeated.insert(pair.name) }
        return repeated
    }

    /// Distinct names in order of first appearance.
    public var names: [String] {
        var seen = Set<String>()
        return pairs.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    /// Whether there are no parameters.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Names only: values (codes, tokens, passwords) are never printed.
    public var description: String { "FormFields(\(pairs.map(\.name).joined(separator: ", ")))" }

    /// Pairwise equality, order included.
    public static func == (lhs: FormFields, rhs: FormFields) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
