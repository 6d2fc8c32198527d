import Foundation
import SignetCore
import SignetMail
import SignetStore
import Synchronization

/// Sends the outbox on a thread of its own (not the Swift cooperative pool: a submission blocks
/// for up to `mail.timeout`).
///
/// It claims due messages with a lease (so several nodes share one outbox and a node that dies
/// mid-send leaves its message to the others), sends each, and marks it sent; a transient failure
/// is tried again later (`MailRetry`), a permanent one, or a transient one past the retry window,
/// marks it failed. It wakes when a message is enqueued on this node and otherwise polls every
/// `pollInterval` seconds. Each failure is logged as one line with the message id and
/// `MailError.reason`: never the address, subject, body, code or link.
public final class MailSender: Sendable {
    private let queue: MailQueue
    private let transport: any MailTransport
    private let from: MailAddress
    private let fromName: String
    private let clock: any Clock
    private let random: any RandomSource
    private let retry: MailRetry
    private let lease: TimeInterval
    private nonisolated(unsafe) var thread: BackgroundThread?
    private let stopping = Atomic<Bool>(false)
    /// Messages claimed per round.
    static let batch = 10

    /// Starts sending `queue`'s outbox through `transport`, as `from` / `fromName`.
    ///
    /// - Parameters:
    ///   - lease: how long a claimed message is held before another sender may take it: longer
    ///     than one submission may take.
    ///   - pollInterval: real seconds between looks at the outbox when nothing rings.
    public init(queue: MailQueue, transport: any MailTransport, from: MailAddress, fromName: String, clock: any Clock,
                random: any RandomSource, retry: MailRetry = .standard, lease: TimeInterval, pollInterval: TimeInterval = 5) {
        self.queue = queue
        self.transport = transport
        self.from = from
        self.fromName = fromName
        self.clock = clock
        self.random = random
        self.retry = retry
        self.lease = lease
        // Set before any other thread can see the sender, and only read afterwards.
        thread = BackgroundThread(name: "signet-mail") { [self] in
            repeat { sendDue() } while queue.doorbell.wait(seconds: pollInterval) && !isStopping
        }
    }

    /// Sends every message due now, a batch at a time, until none is left or the sender stops.
    private func sendDue() {
        while !isStopping {
            let now = clock.now
            let claimed: [OutboxMessageRecord]
            do {
                claimed = try queue.outbox.claimDue(now: now, leaseUntil: now.addingTimeInterval(lease), limit: Self.batch)
            } catch {
                Log.error("mail: cannot read the outbox (trying again later): \(error)")
                return
            }
            for message in claimed { deliver(message) }
            if claimed.count < Self.batch { return }
        }
    }

    /// One attempt at one claimed message.
    private func deliver(_ record: OutboxMessageRecord) {
        let attempts = record.attempts + 1
        do {
            let content: MailQueue.Content
            do { content = try queue.open(record) } catch {
                Log.error("mail \(record.id): failed for good: it cannot be opened with this master key")
                try queue.outbox.markFailed(id: record.id, attempts: attempts, at: clock.now)
                return
            }
            do {
                let message = MailMessage(from: from, fromName: fromName, to: try MailAddress(content.to), subject: content.subject,
                                          text: content.text, html: content.html)
                try transport.send(message)
                try queue.outbox.markSent(id: record.id, at: clock.now)
            } catch let error as MailError {
                try failed(record, attempts: attempts, error)
            }
        } catch {
            Log.error("mail \(record.id): cannot update the outbox (the message stays leased, then is tried again): \(error)")
        }
    }

    /// Reschedules or gives up after a failed attempt, with one log line.
    private func failed(_ record: OutboxMessageRecord, attempts: Int, _ error: MailError) throws {
        let now = clock.now
        if error.isTransient,
           let next = retry.nextAttempt(afterAttempt: attempts, now: now, enqueuedAt: record.createdAt, unit: randomUnit()) {
            try queue.outbox.reschedule(id: record.id, attempts: attempts, nextAttemptAt: next)
            Log.error("mail \(record.id): attempt \(attempts) failed, trying again in \(Int(next.timeIntervalSince(now))) s: \(error.reason)")
        } else {
            try queue.outbox.markFailed(id: record.id, attempts: attempts, at: now)
            let why = error.isTransient ? "still failing after \(Int(retry.window / 3600)) h" : "refused"
            Log.error("mail \(record.id): failed for good after \(attempts) attempt(s), \(why): \(error.reason)")
        }
    }

    /// A random number in 0 ..< 1 for the jitter.
    private func randomUnit() -> Double {
        let value = random.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(value >> 11) / Double(UInt64(1) << 53)
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Stops the thread and waits until it has ended (after the submission in progress, if any).
    /// Safe to call more than once.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        queue.notifySender()
        thread?.join()
    }
}
