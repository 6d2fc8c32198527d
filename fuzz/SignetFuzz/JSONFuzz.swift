import SignetJOSE

/// The JSON parser: any bytes either fail with a `JSONParseError` or give a value whose
/// serialization parses back to a value with the same serialization (the serializer is
/// deterministic, so this catches values the parser builds but the serializer writes wrongly).
enum JSONFuzz {
    static func run(_ input: [UInt8]) {
        guard let value = try? JSONValue.parse(input) else {
            _ = try? JSONValue.parse(input, maximumDepth: 2)
            return
        }
        let written = value.serialized()
        let reread: JSONValue
        do { reread = try JSONValue.parse(written) } catch {
            require(false, "the serialization of a parsed value does not parse: \(error)")
            return
        }
        require(reread.serialized() == written, "serialize(parse(serialize(v))) differs from serialize(v)")
        // A shallower limit may refuse the value but never crash.
        _ = try? JSONValue.parse(input, maximumDepth: 2)
    }
}
