@testable import SignetSQL
import SignetTesting
import Testing

/// A code's `amr` in `authorization_codes.payload` (`AMRColumn`): the compact form this build
/// writes, and whatever JSON a code issued by an earlier build holds when the token endpoint reads it.
@Suite("AMRColumn: a code's amr in its payload", .endToEndLimit)
struct AMRColumnTests {
    @Test func theCompactFormRoundTrips() throws {
        for amr in [[], ["pwd"], ["pwd", "otp", "mfa"], ["with \"quote\"", "back\\slash"]] {
            let payload = try AMRColumn.encode(amr)
            #expect(AMRColumn.decode(payload) == amr, "\(payload)")
        }
        #expect(try AMRColumn.encode(["pwd", "otp"]) == #"{"amr":["pwd","otp"]}"#)
    }

    @Test func otherJSONFromEarlierBuildsIsRead() {
        #expect(AMRColumn.decode(#"{ "amr" : [ "pwd" ], "acr": "1" }"#) == ["pwd"])
        #expect(AMRColumn.decode(#"{"acr":"1","amr":["hwk","user"]}"#) == ["hwk", "user"])
        #expect(AMRColumn.decode(#"{"amr":["\u0070wd"]}"#) == ["pwd"])
    }

    @Test func aPayloadWithoutAMROrNotJSONIsNoMethod() {
        for payload in ["{}", #"{"acr":"1"}"#, "", "not json", #"{"amr":"pwd"}"#, #"{"amr":["pwd""#, "[]", #"{"amr":[1,2]}"#] {
            #expect(AMRColumn.decode(payload) == [], "\(payload)")
        }
    }
}
