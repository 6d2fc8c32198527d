extension JSONValue {
    /// The default nesting limit for arrays and objects.
    public static let defaultMaximumDepth = 64

    /// Parses one JSON text (RFC 8259) from UTF-8 bytes.
    ///
    /// Strict: no comments, trailing commas, leading zeros, `NaN`, single quotes, unescaped control
    /// characters, invalid UTF-8 or lone surrogate escapes; only space, tab, CR and LF as
    /// whitespace; nothing but whitespace after the value. Objects with a repeated member name are
    /// rejected (names are compared after unescaping, with Swift `String` equality, so canonically
    /// equivalent names also count as repeats).
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            var parser = JSONParser(buffer, maximumDepth: maximumDepth)
            return Result { () throws(JSONParseError) in try parser.parseDocument() }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = JSONParser(buffer, maximumDepth: maximumDepth)
            return try parser.parseDocument()
        }
    }

    /// Parses one JSON text from a string (see `parse(_:maximumDepth:)` for the rules).
    public static func parse(_ string: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(string.utf8), maximumDepth: maximumDepth)
    }
}

/// A byte-level recursive-descent JSON parser.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let maximumDepth: Int
    private var depth = 0

    init(_ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.input = input
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == input.count else { throw error(.syntax) }
        return value
    }

    private func error(_ kind: JSONParseError.Kind) -> JSONParseError {
        JSONParseError(kind, at: position)
    }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0a, 0x0d: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < input.count else { throw error(.syntax) }
        switch input[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error(.syntax)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard input.count - position >= count else { throw error(.syntax) }
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for index in 0..<count where input[position + index] != bytes[index] {
            throw error(.syntax)
        }
        position += count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= maximumDepth else { throw error(.tooDeep) }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        if openContainer(closing: UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard position < input.count, input[position] == UInt8(ascii: "\"") else { throw error(.syntax) }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            guard position < input.count, input[position] == UInt8(ascii: ":") else { throw error(.syntax) }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            guard members.updateValue(value, forKey: key) == nil else {
                throw JSONParseError(.duplicateKey, at: keyOffset)
            }
            if try closeOrContinue(UInt8(ascii: "}")) { return .object(members) }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        if openContainer(closing: UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            if try closeOrContinue(UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    /// Steps over a container's opening bracket, and over its `closing` one too when nothing but
    /// whitespace lies between: true for an empty container.
    private mutating func openContainer(closing: UInt8) -> Bool {
        position += 1
        skipWhitespace()
        guard position < input.count, input[position] == closing else { return false }
        position += 1
        return true
    }

    /// After a member or an element: steps over a `,` (false: another must follow) or over the
    /// container's `closing` bracket (true: it ended); anything else is a syntax error.
    private mutating func closeOrContinue(_ closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard position < input.count else { throw error(.syntax) }
        if input[position] == UInt8(ascii: ",") {
            position += 1
            return false
        }
        guard input[position] == closing else { throw error(.syntax) }
        position += 1
        return true
    }

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes.
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: input[start..<position])
                guard let string = String(validating: slice, as: UTF8.self) else { throw error(.invalidString) }
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(.syntax) }
            position += 1
        }
        // Slow path: decode escapes into a byte buffer, then validate UTF-8 once.
        var bytes = Array(input[start..<position])
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: bytes, as: UTF8.self) else { throw error(.invalidString) }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < input.count else { throw error(.syntax) }
                let escape = input[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5c)
                case UInt8(ascii: "/"): bytes.append(0x2f)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0c)
                case UInt8(ascii: "n"): bytes.append(0x0a)
                case UInt8(ascii: "r"): bytes.append(0x0d)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xd800...0xdbff).contains(scalar) {
                        // RFC 8259 §7: a high surrogate must be followed by an escaped low surrogate.
                        guard input.count - position >= 6, input[position] == UInt8(ascii: "\\"),
                              input[position + 1] == UInt8(ascii: "u") else { throw error(.invalidString) }
                        position += 2
                        let low = try parseHex4()
                        guard (0xdc00...0xdfff).contains(low) else { throw error(.invalidString) }
                        scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
                    } else if (0xdc00...0xdfff).contains(scalar) {
                        throw error(.invalidString)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error(.invalidString) }
                    bytes.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw error(.syntax)
                }
            default:
                if byte < 0x20 { throw error(.syntax) }
                bytes.append(byte)
                position += 1
            }
        }
        throw error(.syntax)
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard input.count - position >= 4 else { throw error(.syntax) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error(.syntax)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        if input[position] == UInt8(ascii: "-") { position += 1 }
        guard position < input.count else { throw error(.syntax) }
        if input[position] == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(input[position]) {
            while position < input.count, isDigit(input[position]) { position += 1 }
        } else {
            throw error(.syntax)
        }
        var isInteger = true
        if position < input.count, input[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < input.count, isDigit(input[position]) else { throw error(.syntax) }
            while position < input.count, isDigit(input[position]) { position += 1 }
        }
        if position < input.count, input[position] == UInt8(ascii: "e") || input[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < input.count, isDigit(input[position]) else { throw error(.syntax) }
            while position < input.count, isDigit(input[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(.numberOutOfRange, at: start)
        }
        return .number(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
