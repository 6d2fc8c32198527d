import Foundation
import Synchronization
import Testing
@testable import SignetHTTP

@Suite(.endToEndLimit) struct RequestContextTests {
    static func isFresh(_ id: String) -> Bool {
        id.utf8.count == 24 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Fresh ids come 42 to a buffer of random bytes per thread: across many refills and many
    /// threads none repeats, each is 24 lowercase hex digits, and every digit value occurs (a
    /// buffer handed out twice, or zeroed bytes handed out, would show as repeats or missing digits).
    @Test func freshIdsAreHexAndNeverRepeatAcrossRefillsAndThreads() {
        let seen = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var mine: [String] = []
            for _ in 0..<500 { mine.append(RequestContext.fresh()) }
            seen.withLock { $0 += mine }
        }
        let ids = seen.withLock { $0 }
        #expect(ids.count == 4_000)
        #expect(ids.allSatisfy(Self.isFresh))
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.joined().utf8).count == 16)
    }
}
