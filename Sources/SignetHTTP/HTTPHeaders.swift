/// An ordered list of HTTP header fields with case-insensitive name lookup.
///
/// Order and duplicates are kept as received (or as added). Names are compared ASCII
/// case-insensitively without allocating.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public typealias Element = (name: String, value: String)

    @usableFromInline var fields: [Element]

    /// An empty header list.
    public init() { fields = [] }

    /// Headers from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)]) { fields = pairs.map { (name: $0.0, value: $0.1) } }

    /// Headers from a literal, in order.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// Reserves room for `count` fields.
    init(capacity: Int) { fields = []; fields.reserveCapacity(capacity) }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        for field in fields where HTTPHeaders.equalsIgnoringCase(field.name, name) { return field.value }
        return nil
    }

    /// Every value for `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { HTTPHeaders.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name: name, value: value)) }

    /// Replaces every field named `name` with a single one (appended at the end if new).
    public mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { HTTPHeaders.equalsIgnoringCase($0.name, name) }) {
            fields[index].value = value
            var next = index + 1
            while next < fields.count {
                if HTTPHeaders.equalsIgnoringCase(fields[next].name, name) { fields.remove(at: next) } else { next += 1 }
            }
        } else {
            fields.append((name: name, value: value))
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { HTTPHeaders.equalsIgnoringCase($0.name, name) }
    }

    /// Number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Element]> { fields.makeIterator() }

    /// `Name: value` lines. Header values can carry secrets (cookies, credentials): do not log this.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// ASCII case-insensitive comparison of two header names.
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        let au = a.utf8, bu = b.utf8
        guard au.count == bu.count else { return false }
        // Most lookups name a field the way the client spelled it.
        if a == b { return true }
        for (x, y) in zip(au, bu) where x != y {
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }
}
