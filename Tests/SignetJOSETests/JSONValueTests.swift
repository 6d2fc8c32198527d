import SignetTesting
import Testing
@testable import SignetJOSE

@Suite(.endToEndLimit) struct JSONValueTests {
    /// The eight-bytes-at-a-time test finds exactly the words holding a byte to escape: every byte
    /// value at every position among clean bytes, and random words against the byte-wise rule.
    @Test func escapeScanMatchesTheByteRule() throws {
        func bytewise(_ word: UInt64) -> Bool {
            (0..<8).contains { shift in
                let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt64(shift)))
                return byte < 0x20 || byte == 0x22 || byte == 0x5C
            }
        }
        let clean = UInt64(0x6161_6161_6161_6161)
        for position in 0..<8 {
            for byte in 0...255 {
                let shift = UInt64(8 * position)
                let word = clean & ~(0xFF << shift) | UInt64(byte) << shift
                #expect(JSONValue.needsEscape(word) == bytewise(word), "byte \(byte) at \(position)")
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let word = generator.next() as UInt64
            #expect(JSONValue.needsEscape(word) == bytewise(word))
        }
        // Strings of every length around the word size, with the escape at each place.
        for length in 0..<20 {
            for place in 0...length {
                var text = String(repeating: "é", count: length / 2) + String(repeating: "x", count: length - length / 2)
                let at = text.index(text.startIndex, offsetBy: min(place, text.count))
                text.insert(contentsOf: "\"\n\\", at: at)
                #expect(try JSONValue.parse(JSONValue.string(text).serializedString()) == .string(text), "\(length) \(place)")
            }
        }
    }

    @Test func parsesAllTypes() throws {
        let value = try JSONValue.parse(#" {"a":[1,-2,3.5,1e3,true,false,null],"b":{"c":"d\u00e9\n"},"e":""} "#)
        #expect(value == .object([
            "a": .array([.int(1), .int(-2), .number(3.5), .number(1000), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("dé\n")]),
            "e": .string(""),
        ]))
    }

    @Test func duplicateKeysAreRejected() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":1,"a":2}"#) }
        #expect(Self.kind(#"{"a":1,"a":2}"#) == .duplicateKey)
        #expect(Self.kind(#"{"a":1,"\u0061":2}"#) == .duplicateKey)  // same name after unescaping
        #expect(Self.kind(#"{"x":{"a":1,"b":{"a":2},"a":3}}"#) == .duplicateKey)
        #expect(Self.kind(#"{"a":1,"A":2}"#) == nil)
    }

    @Test func syntaxIsStrict() {
        let bad = ["", " ", "{", "}", "[1,]", "{\"a\":1,}", "01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity",
                   "'a'", "{a:1}", "[1 2]", "\"a", "\"\\x\"", "\"\\u12\"", "true false", "{} x", "nul", "tru",
                   "[1]//", "\"tab\there\"", "{\"a\" 1}", "\u{feff}{}"]
        for text in bad {
            #expect(Self.kind(text) != nil, "\(text.debugDescription) should be rejected")
        }
    }

    @Test func stringsAreValidated() {
        #expect(Self.kind(#""\ud800""#) == .invalidString)            // lone high surrogate
        #expect(Self.kind(#""\udc00""#) == .invalidString)            // lone low surrogate
        #expect(Self.kind(#""\ud800\u0041""#) == .invalidString)
        #expect((try? JSONValue.parse(#""\ud83d\udd11""#)) == .string("🔑"))
        // Invalid UTF-8 bytes inside a string.
        #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xff, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xc3, 0x22]) }
    }

    @Test func numbers() throws {
        #expect(try JSONValue.parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSONValue.parse("9223372036854775808") == .number(9223372036854775808))
        #expect(try JSONValue.parse("-0") == .int(0))
        #expect(try JSONValue.parse("1700000000.5") == .number(1700000000.5))
        #expect(Self.kind("1e400") == .numberOutOfRange)
        #expect(JSONValue.number(1_700_000_000).intValue == 1_700_000_000)
        #expect(JSONValue.number(1.5).intValue == nil)
    }

    @Test func depthLimit() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(Self.kind(deep) == .tooDeep)
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(Self.kind(ok) == nil)
        #expect((try? JSONValue.parse("[[1]]", maximumDepth: 1)) == nil)
    }

    @Test func deterministicSerialization() {
        let value: JSONValue = ["iss": "https://id.example.com/t", "aud": ["a", "b"], "exp": 1_700_000_000,
                                "frac": 0.25, "whole": .number(3), "esc": "q\"\\\n\u{1}é/", "n": nil, "t": true]
        let expected = #"{"aud":["a","b"],"esc":"q\"\\\n\u0001é/","exp":1700000000,"frac":0.25,"iss":"https://id.example.com/t","n":null,"t":true,"whole":3}"#
        #expect(value.serializedString() == expected)
        #expect(value.serialized() == value.serialized())
        // Parse(serialize(x)) == x for parsed values.
        #expect((try? JSONValue.parse(value.serialized())) == value.normalizedForRoundTrip)
        #expect(JSONValue.number(.nan).serializedString() == "null")
    }

    @Test func keysSortByUTF8Bytes() {
        let value: JSONValue = ["b": 1, "a": 2, "B": 3, "é": 4, "aa": 5]
        #expect(value.serializedString() == #"{"B":3,"a":2,"aa":5,"b":1,"é":4}"#)
        // Bytes, not String's order: a decomposed "e\u{301}" (65 CC 81) sorts before "f" (66),
        // though as a String it equals "é", which sorts after "f".
        let decomposed: JSONValue = .object(["f": 1, "e\u{301}": 2])
        #expect(decomposed.serializedString() == "{\"e\u{301}\":2,\"f\":1}")
    }

    @Test func codableRoundTrip() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", nil, false], "b": ["c": "d"]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    static func kind(_ text: String) -> JSONParseError.Kind? {
        do {
            _ = try JSONValue.parse(text)
            return nil
        } catch {
            return error.kind
        }
    }
}

import Foundation

extension JSONValue {
    /// `.number` values that are integral parse back as `.int`.
    var normalizedForRoundTrip: JSONValue {
        switch self {
        case .number(let value) where value.rounded(.towardZero) == value: .int(Int64(value))
        case .array(let elements): .array(elements.map(\.normalizedForRoundTrip))
        case .object(let members): .object(members.mapValues(\.normalizedForRoundTrip))
        default: self
        }
    }
}
