import Testing

@Test func placeholder_SignetCryptoTests() { #expect(Bool(true)) }
