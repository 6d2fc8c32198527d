/// Writes one JSON object member by member, in the order the members are added: no dictionary, no
/// sorting and no `Codable` machinery, for responses written on every request (the token
/// response). Strings are escaped as `JSONValue.serialized()` escapes them; the caller adds each
/// name once.
public struct JSONObjectWriter: Sendable {
    private var bytes: [UInt8]
    private var empty = true

    /// An empty object with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Adds `"name":"value"`.
    public mutating func add(_ name: String, _ value: String) {
        member(name)
        JSONValue.writeString(value, into: &bytes)
    }

    /// Adds `"name":value`, when `value` is not nil.
    public mutating func add(_ name: String, _ value: String?) {
        if let value { add(name, value) }
    }

    /// Adds `"name":number`.
    public mutating func add(_ name: String, _ value: Int) {
        member(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Adds `"name":value` for any JSON value.
    public mutating func add(_ name: String, _ value: JSONValue) {
        member(name)
        value.write(into: &bytes)
    }

    /// Adds each of `members`, by name in the order `JSONValue.serialized()` sorts them (the caller
    /// adds no name twice: none of these may be one added before or after).
    public mutating func add(contentsOf members: [String: JSONValue]) {
        for (name, value) in members.sorted(by: { JSONValue.utf8Precedes($0.key, $1.key) }) { add(name, value) }
    }

    /// The object's bytes, closed.
    public func finished() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func member(_ name: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        JSONValue.writeString(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
