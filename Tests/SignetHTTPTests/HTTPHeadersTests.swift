import SignetTesting
import Testing
@testable import SignetHTTP

@Suite(.endToEndLimit) struct HTTPHeadersTests {
    @Test func caseInsensitiveOrderedLookup() {
        var headers = HTTPHeaders()
        headers.add("Accept", "a")
        headers.add("X-Test", "1")
        headers.add("accept", "b")
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values("accept") == ["a", "b"])
        #expect(headers["missing"] == nil)
        headers.set("ACCEPT", "c")
        #expect(headers.values("Accept") == ["c"])
        #expect(headers.map(\.name) == ["Accept", "X-Test"])
        headers.set("New", "n")
        #expect(headers.map(\.name).last == "New")
        headers.remove("x-test")
        #expect(!headers.contains("X-Test"))
    }

    @Test func namesOfDifferentLengthOrLettersDiffer() {
        #expect(!HTTPHeaders.equalsIgnoringCase("Host", "Hosts"))
        #expect(!HTTPHeaders.equalsIgnoringCase("a-b", "a_b"))
        #expect(HTTPHeaders.equalsIgnoringCase("Content-Type", "content-type"))
    }
}

@Suite(.endToEndLimit) struct HTTPMethodTests {
    @Test func anyTokenIsAMethod() {
        #expect(HTTPMethod(rawValue: "GET") == .GET)
        #expect(HTTPMethod(rawValue: "PROPFIND").rawValue == "PROPFIND")
        #expect(HTTPMethod(rawValue: "get") != .GET)   // methods are case-sensitive
    }
}
