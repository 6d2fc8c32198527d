import Foundation
import SignetSQL
import SignetStore
import SignetTesting
import Synchronization
import Testing

@Suite("Contract: mail outbox", .endToEndLimit)
struct OutboxContractTests {
    static func message(_ id: String, at time: Date = t0) -> OutboxMessageRecord {
        OutboxMessageRecord(id: id, sealedMessage: Array("sealed-\(id)".utf8), createdAt: time)
    }

    @Test(arguments: Backend.allCases)
    func enqueueClaimLeaseRescheduleSentFailed(_ backend: Backend) throws {
        let outbox = try backend.make().mailOutbox
        try outbox.enqueue(Self.message("m1"))
        try outbox.enqueue(Self.message("m2", at: t0.addingTimeInterval(1)))
        try outbox.enqueue(Self.message("later", at: t0.addingTimeInterval(100)))
        #expect(throws: StoreError.duplicate) { try outbox.enqueue(Self.message("m1")) }
        #expect(try outbox.pendingCount() == 3)
        #expect(try outbox.message(id: "m1") == Self.message("m1"))
        #expect(try outbox.message(id: "nope") == nil)

        // Due now: m1 and m2, not `later`; they are leased until t0+60.
        let claimed = try outbox.claimDue(now: t0.addingTimeInterval(1), leaseUntil: t0.addingTimeInterval(60), limit: 10)
        #expect(claimed.map(\.id) == ["m1", "m2"])
        #expect(claimed[0].sealedMessage == Array("sealed-m1".utf8))
        #expect(claimed[0].nextAttemptAt == t0.addingTimeInterval(60))
        // Leased: not due again before the lease ends.
        #expect(try outbox.claimDue(now: t0.addingTimeInterval(59), leaseUntil: t0.addingTimeInterval(120), limit: 10).isEmpty)

        try outbox.markSent(id: "m1", at: t0.addingTimeInterval(2))
        let sent = try #require(try outbox.message(id: "m1"))
        #expect(sent.state == .sent && sent.attempts == 1 && sent.finishedAt == t0.addingTimeInterval(2))

        try outbox.reschedule(id: "m2", attempts: 1, nextAttemptAt: t0.addingTimeInterval(30))
        #expect(try outbox.claimDue(now: t0.addingTimeInterval(29), leaseUntil: t0.addingTimeInterval(90), limit: 10).isEmpty)
        let again = try outbox.claimDue(now: t0.addingTimeInterval(30), leaseUntil: t0.addingTimeInterval(90), limit: 10)
        #expect(again.map(\.id) == ["m2"] && again[0].attempts == 1)
        try outbox.markFailed(id: "m2", attempts: 2, at: t0.addingTimeInterval(31))
        // The metrics' outbox depth: only `later` is still pending.
        #expect(try outbox.pendingCount() == 1)
        let failed = try #require(try outbox.message(id: "m2"))
        #expect(failed.state == .failed && failed.attempts == 2 && failed.finishedAt == t0.addingTimeInterval(31))
        // A finished message is never claimed, rescheduled or finished again.
        try outbox.reschedule(id: "m2", attempts: 3, nextAttemptAt: t0)
        try outbox.markSent(id: "m2", at: t0.addingTimeInterval(40))
        #expect(try outbox.message(id: "m2") == failed)
        #expect(try outbox.claimDue(now: t0.addingTimeInterval(100), leaseUntil: t0.addingTimeInterval(200), limit: 10).map(\.id) == ["later"])
    }

    @Test(arguments: Backend.allCases)
    func aLeaseThatRanOutIsClaimedAgain(_ backend: Backend) throws {
        let outbox = try backend.make().mailOutbox
        try outbox.enqueue(Self.message("m1"))
        #expect(try outbox.claimDue(now: t0, leaseUntil: t0.addingTimeInterval(60), limit: 1).map(\.id) == ["m1"])
        // The sender died: after the lease, another takes it.
        #expect(try outbox.claimDue(now: t0.addingTimeInterval(60), leaseUntil: t0.addingTimeInterval(120), limit: 1).map(\.id) == ["m1"])
    }

    @Test(arguments: Backend.allCases)
    func theLimitBoundsOneClaim(_ backend: Backend) throws {
        let outbox = try backend.make().mailOutbox
        for index in 0..<5 { try outbox.enqueue(Self.message("m\(index)", at: t0.addingTimeInterval(Double(index)))) }
        let first = try outbox.claimDue(now: t0.addingTimeInterval(10), leaseUntil: t0.addingTimeInterval(60), limit: 3)
        #expect(first.map(\.id) == ["m0", "m1", "m2"])
        let second = try outbox.claimDue(now: t0.addingTimeInterval(10), leaseUntil: t0.addingTimeInterval(60), limit: 3)
        #expect(second.map(\.id) == ["m3", "m4"])
    }

    /// Many claimers at once (threads; on PostgreSQL each on its own pooled connection): every
    /// message goes to exactly one of them.
    @Test(arguments: Backend.allCases)
    func racingClaimersNeverGetTheSameMessage(_ backend: Backend) throws {
        let outbox = try backend.make().mailOutbox
        let count = 200
        for index in 0..<count { try outbox.enqueue(Self.message(String(format: "m%03d", index))) }
        let claims = Mutex<[String]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            do {
                while true {
                    let batch = try outbox.claimDue(now: t0, leaseUntil: t0.addingTimeInterval(60), limit: 2)
                    if batch.isEmpty { break }
                    claims.withLock { $0 += batch.map(\.id) }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let ids = claims.withLock { $0 }
        #expect(ids.count == count)
        #expect(Set(ids).count == count)
    }

    @Test(arguments: Backend.allCases)
    func purgeDeletesFinishedMessagesPastTheRetention(_ backend: Backend) throws {
        let storage = try backend.make()
        let outbox = storage.mailOutbox
        for id in ["sent", "failed", "pending"] { try outbox.enqueue(Self.message(id)) }
        try outbox.markSent(id: "sent", at: t0.addingTimeInterval(10))
        try outbox.markFailed(id: "failed", attempts: 1, at: t0.addingTimeInterval(20))
        #expect(try storage.purge(before: t0.addingTimeInterval(10)) == 0)
        #expect(try storage.purge(before: t0.addingTimeInterval(11)) == 1)
        #expect(try outbox.message(id: "sent") == nil)
        #expect(try storage.purge(before: t0.addingTimeInterval(1_000_000)) == 1)
        #expect(try outbox.message(id: "failed") == nil)
        // A pending message is never purged, however old.
        #expect(try outbox.message(id: "pending")?.state == .pending)
    }

    /// `SQLMailOutbox.enqueue(_:on:)` inside another action's transaction: the mail exists only if
    /// that transaction commits.
    @Test(arguments: Backend.allCases)
    func enqueueInsideATransactionCommitsWithIt(_ backend: Backend) throws {
        let storage = try backend.make()
        let stores = try #require((storage as? any SQLStorage)?.stores)
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try stores.transaction { db in
                try SQLMailOutbox.enqueue(Self.message("rolled-back"), on: db)
                throw Abandoned()
            }
        }
        #expect(try storage.mailOutbox.message(id: "rolled-back") == nil)
        try stores.transaction { db in try SQLMailOutbox.enqueue(Self.message("committed"), on: db) }
        #expect(try storage.mailOutbox.message(id: "committed") == Self.message("committed"))
    }
}
