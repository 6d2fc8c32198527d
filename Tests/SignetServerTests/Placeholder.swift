import Testing

@Test func placeholder_SignetServerTests() { #expect(Bool(true)) }
