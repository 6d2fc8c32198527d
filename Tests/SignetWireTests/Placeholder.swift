import Testing

@Test func placeholder_SignetWireTests() { #expect(Bool(true)) }
