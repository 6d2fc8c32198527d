import Foundation
import SignetSQL
import SignetStore
import Synchronization

/// The one writer connection, and group commit over it: writes that queue up while a commit
/// syncs share the next commit, so with `synchronous = FULL` one `fdatasync` makes several
/// requests' writes durable instead of one each.
///
/// A caller's write is a `Member` in a FIFO queue. The first caller to find no batch under way
/// leads one: holding `lock` (the connection), it takes the queued members, opens one
/// `BEGIN IMMEDIATE` transaction, runs each member's body in turn (a transaction's in its own
/// savepoint, so a throw undoes only that body), takes the members that queued meanwhile, up to
/// `maxBatch`, and commits once. Only then does any member get its result: every caller returns
/// after the commit that holds its writes (or the rollback that drops them), so a write is as
/// durable when it returns as with one commit per write. If the commit fails, every member in it
/// gets that error and none of their writes persist. The leader then hands the lead to the first
/// member still queued (those that arrived during the commit), whose batch starts at once.
///
/// Bodies run one at a time on the leader's thread while their callers sleep, so the outcome is
/// that of a serial order (the queue's), a later body reads what an earlier one wrote, and no
/// body can see another's writes that do not commit with its own. Without a queue (a lone write)
/// this is the old path: a statement in autocommit, or `BEGIN IMMEDIATE` … `COMMIT`.
///
/// The waits are `DispatchSemaphore`s, one per member, each woken once (with its result, or to
/// lead), so a thread waiting for a commit sleeps and costs no CPU. `lock` is a plain
/// `pthread_mutex_t` (`NSLock`): `withLock` (migrations, pragmas, the checkpointer's locked
/// step) takes it between batches, outside any transaction. `Synchronization.Mutex` spins first
/// and then sleeps on a priority-inheriting futex, which cost CPU when the lock was held through
/// each sync (bench/README.md, "CPU per operation"); the queue itself is held for nanoseconds.
final class SQLiteWriter: @unchecked Sendable {
    /// The most members one commit holds. Under a steady load the batch is what queued during the
    /// previous commit's sync (the request threads waiting); the bound keeps a leader's own
    /// answer from waiting behind an endless stream.
    static let maxBatch = 64

    /// What a member runs: a run of single statements (`SQLDatabase.write`), or a transaction.
    enum Kind {
        /// Each statement atomic on its own: a throw keeps what ran before it (as in autocommit).
        case statements
        /// All or nothing: a throw rolls the body back (to its savepoint).
        case transaction
    }

    private let lock = NSLock()
    /// Used only while `lock` is held: that rule, not the compiler, is why this is `@unchecked Sendable`.
    private let connection: SQLiteConnection
    private let queue = Mutex(Queue())
    private let timings = Mutex<SQLTimings?>(nil)

    private struct Queue {
        /// Members waiting for a batch, oldest first.
        var waiting: [Member] = []
        /// Whether a leader is running a batch (or has been woken to): then a new member waits.
        var leading = false
    }

    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Reports each batch's `BEGIN IMMEDIATE` and `COMMIT` (and `ROLLBACK`) to `timings`: they run
    /// on the writer, not through any facet's (timed) connection.
    func report(to timings: SQLTimings) {
        self.timings.withLock { $0 = timings }
    }

    /// How many writes are queued for a batch that has not taken them yet (tests: to know that
    /// writes started while a batch runs will join the next take).
    var queuedCount: Int { queue.withLock { $0.waiting.count } }

    /// Runs `body` on the writer connection while holding the lock, outside any batch and any
    /// transaction.
    func withLock<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    /// Runs `body` as a member of a batch (see the type); returns its result, or throws its error
    /// (or the batch commit's), once the commit that holds its writes is done.
    func write<T: Sendable>(_ kind: Kind, _ body: (SQLiteConnection) throws -> T) throws -> T {
        var value: T?
        let failure: (any Error)? = withoutActuallyEscaping({ (db: SQLiteConnection) throws -> Void in value = try body(db) }) { run in
            let member = Member(kind, run)
            submit(member)
            return member.error
        }
        if let failure { throw failure }
        guard let value else { throw StoreError.backend("the SQLite writer finished a write without its result") }
        return value
    }

    /// Queues `member` and returns when it has its result: it leads a batch itself when none is
    /// under way, or when the batch before hands it the lead; otherwise it sleeps until the
    /// leader of its batch wakes it.
    private func submit(_ member: Member) {
        let leads = queue.withLock { queue in
            queue.waiting.append(member)
            if queue.leading { return false }
            queue.leading = true
            return true
        }
        if leads || member.waitForResult() { lead(member) }
    }

    /// One batch, led by `own`'s caller (first in the queue): see the type.
    private func lead(_ own: Member) {
        let timings = self.timings.withLock { $0 }
        var batch = Batch()
        lock.lock()
        // Members that queue while the transaction is open join it; once nothing is open (a lone
        // write committed on its own, a lone transaction rolled back), the next leader takes them.
        while batch.count < Self.maxBatch && (batch.count == 0 || batch.isOpen) {
            let room = Self.maxBatch - batch.count
            let (taken, more) = queue.withLock { queue in
                let taken = Array(queue.waiting.prefix(room))
                queue.waiting.removeFirst(taken.count)
                return (taken, !queue.waiting.isEmpty)
            }
            if taken.isEmpty { break }
            for member in taken {
                run(member, alone: taken.count == 1 && !more, in: &batch, timings: timings)
            }
        }
        if batch.isOpen { commit(&batch, timings: timings) }
        lock.unlock()
        let next = queue.withLock { queue -> Member? in
            if let first = queue.waiting.first { return first }
            queue.leading = false
            return nil
        }
        next?.wake(toLead: true)
        for member in batch.members where member !== own { member.wake(toLead: false) }
    }

    /// The members of one batch so far, and whether its transaction is open.
    private struct Batch {
        /// Whether `BEGIN IMMEDIATE` has run and no `COMMIT` or `ROLLBACK` since.
        var isOpen = false
        /// Members in the open transaction: their outcome waits for its commit.
        var pending: [Member] = []
        /// Members whose outcome is final (rolled back, refused, or committed on their own).
        var settled: [Member] = []
        var count: Int { pending.count + settled.count }
        var members: [Member] { settled + pending }

        /// The open transaction ended without a commit (`error` rolled it back): every member in
        /// it gets `error`.
        mutating func lose(_ error: any Error) {
            for member in pending { member.error = error }
            settled += pending
            pending = []
            isOpen = false
        }
    }

    /// Runs `member`'s body into `batch`. A lone `.statements` member (nothing else queued and no
    /// transaction open) runs in autocommit, as a write did before group commit.
    private func run(_ member: Member, alone: Bool, in batch: inout Batch, timings: SQLTimings?) {
        guard let body = member.take() else {
            member.error = StoreError.backend("the SQLite writer ran a write twice")
            batch.settled.append(member)
            return
        }
        if !batch.isOpen {
            if member.kind == .statements && alone {
                member.error = Self.failure { try body(connection) }
                batch.settled.append(member)
                return
            }
            if let error = Self.failure({ try control(connection.dialect.beginTransaction, timings) }) {
                member.error = error
                batch.settled.append(member)
                return
            }
            batch.isOpen = true
            if member.kind == .transaction {
                // First in the transaction: a throw rolls back the transaction, which holds only it.
                if let error = Self.failure({ try body(connection) }) {
                    member.error = error
                    if connection.isInTransaction { _ = Self.failure { try control("ROLLBACK", timings) } }
                    batch.isOpen = false
                    batch.settled.append(member)
                    return
                }
                batch.pending.append(member)
                return
            }
        }
        let error = Self.failure {
            switch member.kind {
            case .statements: try body(connection)
            case .transaction: try connection.savepoint { try body(connection) }
            }
        }
        member.error = error
        if error != nil, !connection.isInTransaction {
            // The error ended the whole transaction (a full disk, an I/O error): the members
            // before this one lost their writes too.
            batch.pending.append(member)
            batch.lose(error ?? StoreError.backend("the group transaction was rolled back"))
        } else if error != nil, member.kind == .transaction {
            batch.settled.append(member)   // rolled back to its savepoint; the others go on
        } else {
            batch.pending.append(member)
        }
    }

    /// Commits the batch's transaction; if that fails, rolls it back and fails every member in it.
    private func commit(_ batch: inout Batch, timings: SQLTimings?) {
        if let error = Self.failure({ try control("COMMIT", timings) }) {
            if connection.isInTransaction { _ = Self.failure { try control("ROLLBACK", timings) } }
            batch.lose(error)
        } else {
            batch.settled += batch.pending
            batch.pending = []
            batch.isOpen = false
        }
    }

    /// Runs a transaction-control statement on the writer, timed for `timings`.
    private func control(_ sql: String, _ timings: SQLTimings?) throws {
        guard let timings else {
            _ = try connection.run(sql)
            return
        }
        try timings.measure(sql) { _ = try connection.run(sql) }
    }

    /// The error `body` throws, or nil.
    private static func failure(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    /// One caller's write in the queue. Its caller sleeps in `waitForResult` until a leader sets
    /// `error` (nil: success) and wakes it, or wakes it to lead the next batch.
    final class Member: @unchecked Sendable {
        let kind: Kind
        /// The caller's body, until the leader takes it to run: it lives on the caller's stack
        /// (`withoutActuallyEscaping`), so no reference to it may outlive the run.
        private var body: ((SQLiteConnection) throws -> Void)?
        /// The outcome, written by the leader before `wake`, read by the caller after it.
        var error: (any Error)?
        private var leads = false
        private let signal = DispatchSemaphore(value: 0)

        init(_ kind: Kind, _ body: @escaping (SQLiteConnection) throws -> Void) {
            self.kind = kind
            self.body = body
        }

        /// The body, handed over once.
        func take() -> ((SQLiteConnection) throws -> Void)? {
            defer { body = nil }
            return body
        }

        /// Sleeps until woken; true when woken to lead the next batch rather than with a result.
        func waitForResult() -> Bool {
            signal.wait()
            return leads
        }

        func wake(toLead: Bool) {
            leads = toLead
            signal.signal()
        }
    }
}
