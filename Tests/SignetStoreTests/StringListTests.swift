import Foundation
@testable import SignetStore
import SignetTesting
import Testing

/// The JSON-array column form of string lists: the compact unescaped form is read without a
/// Foundation decoder, every other form as before.
@Suite("String list columns", .endToEndLimit)
struct StringListTests {
    @Test(arguments: [[], ["pwd"], ["pwd", "otp"], ["https://app.example/cb", "é ü", ""], ["a b", "x,y", "[z]"]])
    func whatIsWrittenReadsBack(_ values: [String]) throws {
        #expect(try StringList.decode(try StringList.json(values), column: "c") == values)
    }

    @Test func theCompactFormIsReadWithoutTheDecoder() {
        #expect(StringList.plainArray(#"["pwd"]"#) == ["pwd"])
        #expect(StringList.plainArray(#"["a","","b"]"#) == ["a", "", "b"])
        #expect(StringList.plainArray(#"["é"]"#) == ["é"])
    }

    // `["a",]` too: Foundation's decoder accepts the trailing comma, and so the column still does.
    @Test(arguments: [#"["a\/b"]"#, #"[ "a" ]"#, #"["a", "b"]"#, #"["a\n"]"#, #"["\u0041"]"#, #"["a",]"#])
    func escapesAndWhitespaceGoToTheDecoder(_ json: String) throws {
        #expect(StringList.plainArray(json) == nil)
        #expect(try StringList.decode(json, column: "c") == (try JSONDecoder().decode([String].self, from: Data(json.utf8))))
    }

    @Test(arguments: [#"["a""b"]"#, #"["a"]]"#, #"[""#, #"["a"#, #"[1]"#, #"["a",1]"#, #"{"a":"b"}"#, #"""#, "[\"a\u{1}\"]"])
    func aMalformedColumnIsCorrupt(_ json: String) {
        #expect(StringList.plainArray(json) == nil)
        #expect(throws: StoreError.self) { try StringList.decode(json, column: "c") }
    }
}
