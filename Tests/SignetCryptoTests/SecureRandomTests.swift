import Testing
@testable import SignetCrypto

@Suite struct SecureRandomTests {
    @Test func lengthsAndDistinctness() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(-3).isEmpty)
        #expect(SecureRandom.bytes(32).count == 32)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
        // 4096 random bytes are never all zero (the buffer starts zeroed).
        #expect(SecureRandom.bytes(4096).contains { $0 != 0 })
    }

    @Test func constantTimeCompare() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(constantTimeEquals([], []))
        #expect(!constantTimeEquals([], [0]))
    }
}
