import Dispatch
import Foundation
import SignetSQL
@testable import SignetSQLite
import SignetStore
import SignetTesting
import Synchronization
import Testing

/// Group commit on the SQLite writer (`SQLiteWriter`), on a real database file: writes that queue
/// behind a batch share its one commit, and each keeps the atomicity and the answer it had alone.
///
/// A batch is made without timing: the leader's transaction starts the other writes on their own
/// threads and returns only once all of them are queued behind it, so its batch takes them.
@Suite("SQLiteWriter: group commit", .endToEndLimit)
struct SQLiteWriterTests {
    struct Refused: Error {}

    /// Lines collected from several threads.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A count several threads add to.
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// A temporary store with a scratch table `t(k, v)`, and the number of `COMMIT`s the writer
    /// has run (from its `SQLTimings` report).
    final class Scratch: Sendable {
        let store: SQLiteStorage
        let commits = Counter()
        var database: SQLiteDatabase { store.database }

        init() throws {
            store = try SQLiteStorage.temporary()
            try store.database.writeOutsideTransaction { db in
                try db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
            }
            store.stores.timings.observe { [commits] operation in
                { _, failed in if operation == "commit" && !failed { commits.add() } }
            }
        }

        func insert(_ key: String, _ db: any SQLConnection, value: Int = 0) throws {
            try db.run("INSERT INTO t (k, v) VALUES ($1, $2)", [key, value])
        }

        /// The keys committed, read on a connection of the read pool (not the writer's).
        func committedKeys() throws -> [String] {
            try database.read { db in try db.query("SELECT k FROM t ORDER BY k", []) { try $0.text(0) } }
        }

        /// Whether `key` is committed, as a new connection of its own sees it.
        func isCommitted(_ key: String) throws -> Bool {
            let reader = try SQLiteConnection.open(path: store.path, readOnly: true)
            return try reader.one("SELECT 1 FROM t WHERE k = $1", [key]) { _ in true } ?? false
        }
    }

    /// Starts `work(index)` for each index on a thread of its own (a dispatch queue's pool can be
    /// as small as the machine's cores, and these threads block in the writer); `group` is left
    /// once per index.
    static func startThreads(_ count: Int, group: DispatchGroup, _ work: @escaping @Sendable (Int) -> Void) {
        for index in 0..<count {
            group.enter()
            Thread {
                work(index)
                group.leave()
            }.start()
        }
    }

    /// What each write of a batch got: the leader's error and each follower's (nil: success).
    struct Outcomes {
        var leader: (any Error)?
        var followers: [(any Error)?]
    }

    /// Runs `leader` as a transaction that starts every one of `followers` on its own thread and
    /// waits until all are queued behind it, so they run in its batch; returns what each got, in
    /// `followers`' order, once all have returned.
    func batch(_ scratch: Scratch, leader: (any SQLConnection) throws -> Void,
               followers: [@Sendable (SQLiteDatabase) throws -> Void]) -> Outcomes {
        final class Errors: Sendable {
            let byIndex = Mutex<[Int: any Error]>([:])
        }
        let errors = Errors()
        let group = DispatchGroup()
        var outcomes = Outcomes(leader: nil, followers: [])
        do {
            try scratch.database.transaction { db in
                try leader(db)
                Self.startThreads(followers.count, group: group) { index in
                    do { try followers[index](scratch.database) } catch { errors.byIndex.withLock { $0[index] = error } }
                }
                while scratch.database.writer.queuedCount < followers.count { usleep(200) }
            }
        } catch {
            outcomes.leader = error
        }
        group.wait()
        outcomes.followers = errors.byIndex.withLock { byIndex in followers.indices.map { byIndex[$0] } }
        return outcomes
    }

    @Test func aThrowingTransactionInABatchIsRolledBackAloneAndTheOthersCommit() throws {
        let scratch = try Scratch()
        let before = scratch.commits.count
        let outcomes = batch(scratch, leader: { db in try scratch.insert("a", db) }, followers: [
            { database in try database.transaction { db in try scratch.insert("b", db) } },
            { database in
                try database.transaction { db in
                    try scratch.insert("c", db)
                    throw Refused()
                }
            },
            { database in try database.transaction { db in try scratch.insert("d", db) } },
            // A single write that fails (a duplicate key) gets its error; nothing else is touched.
            { database in try database.write { db in try scratch.insert("a", db) } },
        ])
        let errors = outcomes.followers
        #expect(outcomes.leader == nil && errors[0] == nil && errors[2] == nil, "\(outcomes)")
        #expect(errors[1] is Refused, "\(outcomes)")
        #expect(errors[3] as? StoreError == .duplicate, "\(outcomes)")
        #expect(try scratch.committedKeys() == ["a", "b", "d"])
        #expect(scratch.commits.count - before == 1, "one commit for the whole batch")
    }

    @Test func aFailedCommitFailsEveryMemberAndKeepsNoneOfTheirWrites() throws {
        let scratch = try Scratch()
        try scratch.database.writeOutsideTransaction { db in
            try db.execute("""
                CREATE TABLE parent (id TEXT PRIMARY KEY);
                CREATE TABLE child (id TEXT PRIMARY KEY, parent TEXT REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)
                """)
        }
        // The orphan's foreign key is checked at COMMIT (deferred), so every body succeeds and the
        // commit fails.
        let outcomes = batch(scratch, leader: { db in try scratch.insert("a", db) }, followers: [
            { database in try database.transaction { db in _ = try db.run("INSERT INTO child (id, parent) VALUES ('x', 'missing')", []) } },
            { database in try database.write { db in try scratch.insert("b", db) } },
            { database in try database.transaction { db in try scratch.insert("c", db) } },
        ])
        #expect(outcomes.leader as? StoreError == .notFound, "\(outcomes)")
        #expect(outcomes.followers.allSatisfy { $0 as? StoreError == .notFound }, "\(outcomes)")
        #expect(try scratch.committedKeys() == [])
        #expect(try scratch.database.read { db in try db.one("SELECT count(*) FROM child", []) { try $0.int64(0) } } == 0)
        // The writer is usable again: no transaction was left open.
        try scratch.database.transaction { db in try scratch.insert("after", db) }
        try scratch.database.write { db in try scratch.insert("after-write", db) }
        #expect(try scratch.committedKeys() == ["after", "after-write"])
    }

    /// Each member's answer comes after the commit that holds its write: as soon as its call
    /// returns, a connection of its own already reads the row.
    @Test func noMemberHearsBackBeforeItsWriteIsCommitted() throws {
        let scratch = try Scratch()
        let unseen = Lines()
        let followers: [@Sendable (SQLiteDatabase) throws -> Void] = (0..<6).map { index in
            { database in
                let key = "f\(index)"
                if index.isMultiple(of: 2) {
                    try database.transaction { db in try scratch.insert(key, db) }
                } else {
                    try database.write { db in try scratch.insert(key, db) }
                }
                if try !scratch.isCommitted(key) { unseen.add(key) }
            }
        }
        let outcomes = batch(scratch, leader: { db in try scratch.insert("leader", db) }, followers: followers)
        #expect(outcomes.leader == nil && outcomes.followers.allSatisfy { $0 == nil }, "\(outcomes)")
        #expect(try scratch.isCommitted("leader"))
        #expect(unseen.all == [])
    }

    /// 16 threads, 40 read-modify-write transactions and 10 single writes each: every one lands
    /// exactly once, no increment is lost, and each caller sees its own row committed on return.
    @Test func manyThreadsWritesAllLandExactlyOnce() throws {
        let scratch = try Scratch()
        try scratch.database.write { db in try scratch.insert("counter", db, value: 0) }
        let threads = 16, transactions = 40, writes = 10
        let problems = Lines()
        let group = DispatchGroup()
        Self.startThreads(threads, group: group) { thread in
            do {
                for index in 0..<transactions {
                    let key = "t\(thread)-\(index)"
                    let seen = try scratch.database.transaction { db -> Int in
                        let value = try db.one("SELECT v FROM t WHERE k = 'counter'", []) { Int(try $0.int64(0)) } ?? -1
                        try db.run("UPDATE t SET v = $1 WHERE k = 'counter'", [value + 1])
                        try scratch.insert(key, db, value: value)
                        return value
                    }
                    if try seen < 0 || !scratch.isCommitted(key) { problems.add("\(key): \(seen)") }
                }
                for index in 0..<writes {
                    let key = "w\(thread)-\(index)"
                    try scratch.database.write { db in try scratch.insert(key, db, value: -1) }
                    if try !scratch.isCommitted(key) { problems.add("\(key) not committed") }
                }
            } catch {
                problems.add("\(error)")
            }
        }
        group.wait()
        #expect(problems.all == [])
        let rows = try scratch.database.read { db in
            try db.query("SELECT k, v FROM t WHERE k <> 'counter'", []) { (try $0.text(0), Int(try $0.int64(1))) }
        }
        #expect(rows.count == threads * (transactions + writes))
        #expect(Set(rows.map(\.0)).count == rows.count)
        // Each transaction read the counter as every transaction before it had left it: the values
        // they saw are 0, 1, 2, … with none repeated (a repeat would be a lost update).
        #expect(rows.filter { $0.0.hasPrefix("t") }.map(\.1).sorted() == Array(0..<(threads * transactions)))
        let counter = try scratch.database.read { db in try db.one("SELECT v FROM t WHERE k = 'counter'", []) { try $0.int64(0) } }
        #expect(counter == Int64(threads * transactions))
    }

    /// A transaction opened inside a write that already runs in one (a group's) is a savepoint:
    /// its throw undoes only its own writes.
    @Test func aNestedTransactionIsASavepoint() throws {
        let scratch = try Scratch()
        let innerRefused = try scratch.database.transaction { db -> Bool in
            try scratch.insert("outer", db)
            var refused = false
            do {
                try db.transaction {
                    try scratch.insert("inner", db)
                    throw Refused()
                }
            } catch is Refused {
                refused = true
            }
            try db.transaction { try scratch.insert("inner-kept", db) }
            return refused
        }
        #expect(innerRefused)
        #expect(try scratch.committedKeys() == ["inner-kept", "outer"])
    }

    /// `writeOutsideTransaction` runs what SQLite refuses inside a transaction.
    @Test func writeOutsideTransactionCanChangeThePragmasATransactionCannot() throws {
        let scratch = try Scratch()
        try scratch.database.writeOutsideTransaction { db in try db.execute("PRAGMA synchronous = NORMAL") }
        #expect(try scratch.store.synchronousLevel() == 1)
        #expect(throws: StoreError.self) {
            try scratch.database.transaction { db in try db.execute("PRAGMA synchronous = FULL") }
        }
        #expect(try scratch.store.synchronousLevel() == 1)
    }
}
