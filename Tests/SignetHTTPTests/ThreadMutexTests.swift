import Dispatch
import SignetSync
import Testing

/// `ThreadMutex`, the plain pthread mutex behind the state every request thread takes (where:
/// docs/architecture.md, `SignetSync`).
@Suite(.endToEndLimit) struct ThreadMutexTests {
    @Test func incrementsFromManyThreadsAreNeverLost() {
        let counter = ThreadMutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 160_000)
    }

    @Test func aThrowingBodyRethrowsKeepsItsChangesAndReleasesTheLock() {
        struct Refused: Error {}
        let value = ThreadMutex([1, 2])
        #expect(throws: Refused.self) {
            try value.withLock { array -> Int in
                array.append(3)
                throw Refused()
            }
        }
        // Taken again at once: the throw released it.
        #expect(value.withLock { $0 } == [1, 2, 3])
        #expect(value.withLock { $0.removeLast() } == 3)
    }
}
