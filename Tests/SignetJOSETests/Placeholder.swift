import Testing

@Test func placeholder_SignetJOSETests() { #expect(Bool(true)) }
