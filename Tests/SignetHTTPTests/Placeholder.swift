import Testing

@Test func placeholder_SignetHTTPTests() { #expect(Bool(true)) }
