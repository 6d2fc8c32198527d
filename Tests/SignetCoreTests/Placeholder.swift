import Testing

@Test func placeholder_SignetCoreTests() { #expect(Bool(true)) }
