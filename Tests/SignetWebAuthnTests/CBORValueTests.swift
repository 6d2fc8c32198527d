import Testing
@testable import SignetWebAuthn

/// CBOR through libcbor's streaming decoder: what WebAuthn's encoding uses is read, everything
/// else is refused with the field named.
@Suite struct CBORValueTests {
    static func decode(_ bytes: [UInt8]) -> Result<CBORValue, WebAuthnError> {
        Result { () throws(WebAuthnError) in try CBORValue.decode(bytes, field: "input") }
    }

    @Test func readsTheKindsWebAuthnUses() throws {
        // RFC 8949 Appendix A examples.
        #expect(try CBORValue.decode([0x00], field: "x") == .unsigned(0))
        #expect(try CBORValue.decode([0x18, 0x64], field: "x") == .unsigned(100))
        #expect(try CBORValue.decode([0x1B, 0, 0, 0, 0xE8, 0xD4, 0xA5, 0x10, 0x00], field: "x") == .unsigned(1_000_000_000_000))
        #expect(try CBORValue.decode([0x38, 0x63], field: "x").int64Value == -100)
        #expect(try CBORValue.decode([0x39, 0x01, 0x00], field: "x").int64Value == -257)
        #expect(try CBORValue.decode([0x44, 1, 2, 3, 4], field: "x") == .bytes([1, 2, 3, 4]))
        #expect(try CBORValue.decode([0x62, 0xC3, 0xBC], field: "x") == .text("ü"))
        #expect(try CBORValue.decode([0x83, 0x01, 0x82, 0x02, 0x03, 0x82, 0x04, 0x05], field: "x")
                == .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]))
        let map = try CBORValue.decode([0xA2, 0x61, 0x61, 0x01, 0x61, 0x62, 0x82, 0x02, 0x03], field: "x")
        #expect(map[text: "a"] == .unsigned(1))
        #expect(map[text: "b"] == .array([.unsigned(2), .unsigned(3)]))
        #expect(try CBORValue.decode([0xF4], field: "x") == .bool(false))
        #expect(try CBORValue.decode([0xF5], field: "x") == .bool(true))
        #expect(try CBORValue.decode([0xF6], field: "x") == .null)
        #expect(try CBORValue.decode([0x80], field: "x") == .array([]))
        #expect(try CBORValue.decode([0xA0], field: "x") == .map([]))
        #expect(try CBORValue.decode([0x40], field: "x") == .bytes([]))
        #expect(try CBORValue.decode([0x60], field: "x") == .text(""))
    }

    @Test func encodingRoundTrips() throws {
        let value: CBORValue = [
            .unsigned(1): .unsigned(2),
            .negative(0): .bytes(Array(repeating: 9, count: 300)),
            .text("list"): .array([.bool(true), .null, .unsigned(70000), .negative(4_294_967_296)]),
        ]
        // A map literal keeps its order.
        #expect(value.mapValue?.map(\.key) == [.unsigned(1), .negative(0), .text("list")])
        #expect(try CBORValue.decode(value.encoded(), field: "x") == value)
        #expect(CBORValue.negative(256).encoded() == [0x39, 0x01, 0x00])
    }

    @Test(arguments: [
        ([0x18] as [UInt8], "truncated"),                      // an argument byte missing
        ([0x44, 1, 2], "truncated"),                           // a byte string shorter than declared
        ([0x82, 0x01, 0x18], "truncated"),                     // an array whose last element is cut
        ([0xA1, 0x01, 0x19, 0x01], "truncated"),               // a map whose value is cut
        ([0x82, 0x01], "a container declares more elements than there are bytes"),
        ([0xA1, 0x01], "a container declares more elements than there are bytes"),
        ([0x01, 0x02], "1 bytes after the CBOR item"),         // trailing bytes
        ([0x5F, 0x41, 0x00, 0xFF], "indefinite-length byte string"),
        ([0x7F, 0x61, 0x61, 0xFF], "indefinite-length text string"),
        ([0x9F, 0x01, 0xFF], "indefinite-length array"),
        ([0xBF, 0x01, 0x02, 0xFF], "indefinite-length map"),
        ([0xC1, 0x01], "tags are not accepted"),
        ([0xF9, 0x3C, 0x00], "floating-point values are not accepted"),
        ([0xFB, 0, 0, 0, 0, 0, 0, 0, 0], "floating-point values are not accepted"),
        ([0xF7], "undefined is not accepted"),
        ([0x62, 0xC3, 0x28], "text is not UTF-8"),
        ([0xA2, 0x01, 0x02, 0x01, 0x03], "duplicate map key"),
        ([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00], "a container declares more elements than there are bytes"),
        ([0x9B, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x00], "a container declares more elements than there are bytes"),
        ([0xBB, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x00], "a container declares more elements than there are bytes"),
        ([0xBA, 0x7F, 0xFF, 0xFF, 0xFF, 0x00], "a container declares more elements than there are bytes"),
        ([0x1C], "not well-formed CBOR"),                      // reserved additional information
        ([0xFF], "unexpected break"),
        ([0xF0], "not well-formed CBOR"),                      // simple value 16 (unassigned)
        ([0xF8, 0x20], "not well-formed CBOR"),                // a one-byte simple value
        ([], "empty"),
    ] as [([UInt8], String)])
    func refuses(_ bytes: [UInt8], reason: String) {
        #expect(Self.decode(bytes) == .failure(.malformed(field: "input", reason: reason)))
    }

    @Test func nestingIsBounded() {
        let deep = [UInt8](repeating: 0x81, count: 8) + [0x00]
        #expect(throws: Never.self) { try CBORValue.decode(deep, field: "x") }
        let deeper = [UInt8](repeating: 0x81, count: 9) + [0x00]
        #expect(Self.decode(deeper) == .failure(.malformed(field: "input", reason: "nested deeper than 8")))
        let huge = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(Self.decode(huge) == .failure(.malformed(field: "input", reason: "nested deeper than 8")))
    }

    @Test func prefixReportsWhatItTook() throws {
        let (value, consumed) = try CBORValue.decodePrefix([0xA1, 0x01, 0x02, 0xDE, 0xAD], field: "x")
        #expect(value == [.unsigned(1): .unsigned(2)])
        #expect(consumed == 3)
    }
}
