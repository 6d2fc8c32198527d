import SignetTesting
import Testing
@testable import SignetHTTP

@Suite(.endToEndLimit) struct FormFieldsTests {
    @Test func keepsOrderAndRepeats() throws {
        let form = try FormFields.parse("a=1&b=2&a=3")
        #expect(form.pairs.map(\.name) == ["a", "b", "a"])
        #expect(form.values("a") == ["1", "3"])
        #expect(form.first("a") == "1")
        #expect(form.names == ["a", "b"])
        #expect(form.repeatedNames == ["a"])
        #expect(throws: FormError.repeated("a")) { try form.single("a") }
        #expect(try form.single("b") == "2")
        #expect(try form.single("missing") == nil)
    }

    @Test func plusIsSpaceAndPercent2BIsPlus() throws {
        let form = try FormFields.parse("q=a+b%2Bc&r=%20x")
        #expect(form.first("q") == "a b+c")
        #expect(form.first("r") == " x")
    }

    @Test func decodesUTF8() throws {
        #expect(try FormFields.parse("name=caf%C3%A9").first("name") == "café")
    }

    @Test func emptyValuesAndBareNames() throws {
        let form = try FormFields.parse("a&b=&=v&&c=1")
        #expect(form.pairs.map(\.name) == ["a", "b", "", "c"])
        #expect(form.first("a") == "")
        #expect(form.first("b") == "")
        #expect(form.first("") == "v")
        #expect(try FormFields.parse("").isEmpty)
    }

    @Test(arguments: ["a=%zz", "a=%", "a=%4", "a=1%", "%g0=1", "a=%%41"])
    func brokenPercentEncodingThrows(input: String) {
        #expect(throws: FormError.malformedPercentEncoding) { try FormFields.parse(input) }
    }

    @Test(arguments: ["a=%e9", "a=%C3", "a=%ff%fe", "%80=x"])
    func invalidUTF8Throws(input: String) {
        #expect(throws: FormError.invalidUTF8) { try FormFields.parse(input) }
    }

    @Test func rawNonUTF8BytesThrow() {
        #expect(throws: FormError.invalidUTF8) { try FormFields.parse([UInt8(ascii: "a"), UInt8(ascii: "="), 0xE9]) }
    }

    @Test func descriptionHidesValues() throws {
        let form = try FormFields.parse("code=secret123&state=s")
        #expect(!form.description.contains("secret123"))
        #expect(form.description.contains("code"))
    }
}

@Suite(.endToEndLimit) struct FormEncodingTests {
    @Test func strictEncoding() {
        let encoded = FormEncoding.encode([("code", "a b+c/d?&="), ("state", "é~-._"), ("e", "")])
        #expect(encoded == "code=a%20b%2Bc%2Fd%3F%26%3D&state=%C3%A9~-._&e=")
    }

    @Test func roundTripsThroughParser() throws {
        let pairs = [("redirect_uri", "com.example.app:/cb?x=1"), ("scope", "openid profile"), ("n", "+%")]
        let parsed = try FormFields.parse(FormEncoding.encode(pairs))
        #expect(parsed == FormFields(pairs))
    }
}
