import Foundation
import SignetWire
import Testing

@Suite struct TokenResponseTests {
    @Test func anErrorBodyLeavesOutTheMembersItLacks() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let written = try encoder.encode(ErrorResponse(OAuthError(.invalidGrant, "used")))
        #expect(String(decoding: written, as: UTF8.self) == #"{"error":"invalid_grant","error_description":"used"}"#)
        let withURI = try encoder.encode(ErrorResponse(error: "not_found", errorURI: "https://id.example.com/e"))
        #expect(String(decoding: withURI, as: UTF8.self) == #"{"error":"not_found","error_uri":"https://id.example.com/e"}"#)
        #expect(try JSONDecoder().decode(ErrorResponse.self, from: withURI) == ErrorResponse(error: "not_found", errorURI: "https://id.example.com/e"))
    }
}
