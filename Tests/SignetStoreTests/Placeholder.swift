import Testing

@Test func placeholder_SignetStoreTests() { #expect(Bool(true)) }
