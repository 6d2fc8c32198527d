import Dispatch
import Foundation
@testable import SignetPostgres
@testable import SignetSQL
import SignetCrypto
import SignetSQLite
import SignetStore
import SignetTesting
import Synchronization
import Testing

/// The hash-chained audit trail on every backend: appends number and chain the events, filters
/// select them, retention keeps the chain verifiable, and racing appenders (threads, and a second
/// store on the same database as another node or process) leave one linear chain.
@Suite("Contract: audit trail", .endToEndLimit)
struct AuditContractTests {
    static func event(_ index: Int, at time: Date = t0) -> AuditEvent {
        AuditEvent(event: index.isMultiple(of: 2) ? "sign_in" : "sign_in_failed", actor: index == 0 ? nil : "user:u\(index % 3)",
                   subjectID: "u\(index % 3)", clientID: "app", address: "192.0.2.\(index)", userAgent: "agent \(index)",
                   method: "pwd", reason: index.isMultiple(of: 2) ? nil : "invalid_credentials",
                   detail: #"{"i":\#(index)}"#, at: time.addingTimeInterval(Double(index) + 0.0000004))
    }

    @Test(arguments: Backend.allCases)
    func appendsChainFromGenesisAndListFilters(_ backend: Backend) throws {
        let store = try backend.make().audit
        #expect(try store.recentAudit(limit: 10).isEmpty)
        #expect(try store.verifyAudit() == .intact(events: 0, headSequence: 0, headHash: AuditChain.genesis))
        let sequences = try (0..<6).map { try store.appendAudit(Self.event($0)) }
        #expect(sequences == [1, 2, 3, 4, 5, 6])

        let all = try store.listAudit(AuditQuery(limit: 100))
        #expect(all.map(\.sequence) == [6, 5, 4, 3, 2, 1])
        let first = try #require(all.last)
        #expect(first.previousHash == AuditChain.genesis)
        #expect(first.hash == AuditChain.hash(of: first))
        #expect(first.at.microsecondsSince1970 == Self.event(0).at.microsecondsSince1970)
        for (newer, older) in zip(all, all.dropFirst()) { #expect(newer.previousHash == older.hash) }
        var expected = Self.event(5)
        expected.at = Date(microsecondsSince1970: expected.at.microsecondsSince1970)
        #expect(all.first?.event == expected.event && all.first?.actor == "user:u2" && all.first?.address == "192.0.2.5"
                && all.first?.userAgent == "agent 5" && all.first?.method == "pwd" && all.first?.reason == "invalid_credentials"
                && all.first?.detail == #"{"i":5}"# && all.first?.at == expected.at)
        #expect(try store.verifyAudit() == .intact(events: 6, headSequence: 6, headHash: all[0].hash))

        #expect(try store.listAudit(AuditQuery(event: "sign_in_failed", limit: 100)).map(\.sequence) == [6, 4, 2])
        #expect(try store.listAudit(AuditQuery(subjectID: "u1", limit: 100)).map(\.sequence) == [5, 2])
        #expect(try store.listAudit(AuditQuery(since: t0.addingTimeInterval(4), limit: 100)).map(\.sequence) == [6, 5])
        #expect(try store.listAudit(AuditQuery(clientID: "other", limit: 100)).isEmpty)
        #expect(try store.listAudit(AuditQuery(beforeSequence: 3, limit: 100)).map(\.sequence) == [2, 1])
        #expect(try store.listAudit(AuditQuery(limit: 2)).map(\.sequence) == [6, 5])
        #expect(try store.listAudit(AuditQuery(limit: 0)).isEmpty)
        // By actor (a plain `actor =` through its index), with the other filters and paging.
        #expect(try store.listAudit(AuditQuery(actor: "user:u1", limit: 100)).map(\.sequence) == [5, 2])
        #expect(try store.listAudit(AuditQuery(event: "sign_in_failed", actor: "user:u1", limit: 100)).map(\.sequence) == [2])
        #expect(try store.listAudit(AuditQuery(actor: "user:u1", beforeSequence: 5, limit: 100)).map(\.sequence) == [2])
        #expect(try store.listAudit(AuditQuery(actor: "user:u1", limit: 1)).map(\.sequence) == [5])
        #expect(try store.listAudit(AuditQuery(actor: "nobody", limit: 100)).isEmpty)
    }

    /// Retention deletes the oldest events and moves the checkpoint: what remains still verifies,
    /// and new events chain on.
    @Test(arguments: Backend.allCases)
    func retentionKeepsTheChainVerifiable(_ backend: Backend) throws {
        let store = try backend.make().audit
        for index in 0..<10 { try store.appendAudit(Self.event(index)) }
        #expect(try store.purgeAudit(before: t0, now: t0) == 0)
        #expect(try store.purgeAudit(before: t0.addingTimeInterval(5), now: t0) == 5)
        #expect(try store.listAudit(AuditQuery(limit: 100)).map(\.sequence) == [10, 9, 8, 7, 6])
        guard case .intact(5, 10, _) = try store.verifyAudit() else { Issue.record("\(try store.verifyAudit())"); return }
        #expect(try store.appendAudit(Self.event(10)) == 11)
        guard case .intact(6, 11, _) = try store.verifyAudit() else { Issue.record("\(try store.verifyAudit())"); return }
        #expect(try store.purgeAudit(before: t0.addingTimeInterval(100), now: t0) == 6)
        #expect(try store.appendAudit(Self.event(11)) == 12)
        guard case .intact(1, 12, _) = try store.verifyAudit() else { Issue.record("\(try store.verifyAudit())"); return }
    }

    /// With the chain key bound, a chain written unkeyed goes on keyed: the first keyed append
    /// records the transition (`audit_chain_keyed`, naming the checkpoint and the last unkeyed
    /// sequence) and tells the observer the head; a purge records its checkpoint (`audit_purged`);
    /// the chain verifies with the key, the old rule before the transition and the keyed one after.
    @Test(arguments: Backend.allCases)
    func aKeyedChainRecordsItsTransitionAndItsPurges(_ backend: Backend) throws {
        let storage = try backend.make()
        let store = storage.audit
        for index in 0..<3 { try store.appendAudit(Self.event(index)) }
        let key = [UInt8](repeating: 7, count: 32)
        store.keying.bind(key: key)
        let anchors = Mutex<[AuditAnchor]>([])
        store.keying.observe { head in anchors.withLock { $0.append(head) } }
        #expect(try store.appendAudit(Self.event(3)) == 5)
        #expect(try store.appendAudit(Self.event(4)) == 6)
        let events = try store.listAudit(AuditQuery(limit: 10))
        #expect(events.map(\.event) == ["sign_in", "sign_in_failed", AuditChain.keyedEvent, "sign_in", "sign_in_failed", "sign_in"])
        let transition = events[2]
        #expect(transition.detail == #"{"checkpoint_sequence":0,"checkpoint_hash":"\#(Hex.encode(AuditChain.genesis))","unkeyed_through":3}"#)
        for keyed in events.prefix(3) { #expect(keyed.hash == AuditChain.keyedHash(of: keyed, key: key)) }
        for unkeyed in events.suffix(3) { #expect(unkeyed.hash == AuditChain.hash(of: unkeyed)) }
        #expect(anchors.withLock { $0 } == [AuditAnchor(sequence: 5, hash: events[1].hash), AuditAnchor(sequence: 6, hash: events[0].hash)])
        #expect(try store.verifyAudit() == .intact(events: 6, headSequence: 6, headHash: events[0].hash))

        // Events 1…3 (t0 … t0+2) go; the purge says where the chain now starts.
        #expect(try store.purgeAudit(before: t0.addingTimeInterval(2.5), now: t0.addingTimeInterval(10)) == 3)
        let purged = try #require(try store.listAudit(AuditQuery(limit: 1)).first)
        let third = try #require(events.last { $0.sequence == 3 })
        #expect(purged.sequence == 7 && purged.event == AuditChain.purgedEvent && purged.at == t0.addingTimeInterval(10))
        #expect(purged.detail == #"{"checkpoint_sequence":3,"checkpoint_hash":"\#(Hex.encode(third.hash))","checkpoint_at":"2023-11-14T22:13:22Z","events_deleted":3}"#)
        #expect(try store.verifyAudit() == .intact(events: 4, headSequence: 7, headHash: purged.hash))
        let head = AuditAnchor(sequence: 7, hash: purged.hash)
        let day = t0.addingTimeInterval(86_400)
        #expect(try store.verifyAudit(expecting: .init(head: head, atLeast: 7, retentionSeconds: 3_600, now: day))
                == .intact(events: 4, headSequence: 7, headHash: purged.hash))

        // What the key and the expectation catch, each with the exact break.
        func broken(_ expectation: AuditExpectation) throws -> AuditVerification.Break? {
            guard case .broken(let found) = try store.verifyAudit(expecting: expectation) else { return nil }
            return found
        }
        #expect(try broken(.init(retentionSeconds: 86_400 * 2, now: day)) == .init(sequence: 3, problem: .withinRetention, found: nil))
        #expect(try broken(.init(retentionSeconds: 0, now: day)) == .init(sequence: 3, problem: .withinRetention, found: nil))
        #expect(try broken(.init(head: AuditAnchor(sequence: 6, hash: purged.hash))) == .init(sequence: 6, problem: .anchorMismatch, found: nil))
        #expect(try broken(.init(head: AuditAnchor(sequence: 9, hash: purged.hash))) == .init(sequence: 8, problem: .behindAnchor, found: 9))
        #expect(try broken(.init(atLeast: 8)) == .init(sequence: 8, problem: .behindAnchor, found: 8))
        #expect(try broken(.init(head: AuditAnchor(sequence: 2, hash: third.hash))) == .init(sequence: 2, problem: .anchorPurged, found: 3))
        store.keying.bind(key: [UInt8](repeating: 8, count: 32))
        #expect(try broken(.init()) == .init(sequence: 4, problem: .edited, found: nil))
        store.keying.bind(key: key)
        #expect(try store.appendAudit(Self.event(5)) == 8)
        #expect(try store.listAudit(AuditQuery(event: AuditChain.keyedEvent, limit: 10)).count == 1)
    }

    /// 8 threads over two stores on one database (two pools, as two nodes or the CLI beside the
    /// server would have) append 40 events each: no append fails, and the chain is 1…320 with
    /// every link intact.
    @Test(arguments: Backend.allCases)
    func racingAppendersOnTwoStoresLeaveOneLinearChain(_ backend: Backend) throws {
        let first = try backend.make()
        let second: any SignetStorage
        switch backend {
        case .sqlite:
            second = try SQLiteStorage(path: try #require((first as? SQLiteStorage)?.path))
        case .postgres:
            let name = try #require((first as? PostgresStorage)?.temporaryDatabaseName)
            second = try PostgresStorage(conninfo: try RealPart.postgres(), database: name, migrate: false, maxConnections: 4,
                                         dropOnDeinit: nil)
        }
        let threads = 8, each = 40
        let errors = Mutex<[String]>([])
        let returned = Mutex<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let store = thread.isMultiple(of: 2) ? first.audit : second.audit
            for index in 0..<each {
                do {
                    let sequence = try store.appendAudit(Self.event(thread * 100 + index))
                    returned.withLock { $0.append(sequence) }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { Array($0.prefix(3)) })")
        #expect(returned.withLock { $0.sorted() } == Array(1...Int64(threads * each)))
        let all = try first.audit.listAudit(AuditQuery(limit: 1000))
        #expect(all.count == threads * each)
        guard case .intact(let count, let head, _) = try second.audit.verifyAudit() else {
            Issue.record("chain broken: \(try second.audit.verifyAudit())")
            return
        }
        #expect(count == threads * each && head == Int64(threads * each))
    }

    /// A database as version 4 left it, with events in the old `audit_log`: migration 9 moves them,
    /// oldest first, into a chain that verifies.
    @Test func theAuditMigrationChainsTheOldEvents() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signet-audit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/db.sqlite3"
        let store = try SQLiteStorage(path: path, migrate: false)
        try store.stores.transaction { db in
            try db.execute(db.dialect.render(SQLMigrations.bookkeeping))
            for migration in SQLMigrations.all.prefix(4) { try db.execute(db.dialect.render(migration.template)) }
            for version in 1...4 { try db.run("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)", [version]) }
            try db.run("INSERT INTO audit_log (event, subject_id, client_id, detail, at) VALUES ('sign_in', 'u1', NULL, '{}', 10)")
            try db.run("INSERT INTO audit_log (event, subject_id, client_id, detail, at) VALUES ('code_replay', 'u1', 'app', '{\"grant\":\"g\"}', 20)")
        }
        #expect(try store.migrate() == Array(5...SQLMigrations.latest))
        let events = try store.audit.listAudit(AuditQuery(limit: 10))
        #expect(events.map(\.event) == ["code_replay", "sign_in"])
        #expect(events.map(\.sequence) == [2, 1])
        #expect(events.first?.clientID == "app" && events.first?.detail == #"{"grant":"g"}"#)
        guard case .intact(2, 2, _) = try store.audit.verifyAudit() else { Issue.record("\(try store.audit.verifyAudit())"); return }
        #expect(try store.audit.appendAudit(Self.event(0)) == 3)
    }
}
