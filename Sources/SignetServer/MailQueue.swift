import Foundation
import SignetCore
import SignetCrypto
import SignetMail
import SignetStore

/// Puts mail into the outbox, sealed, and wakes this node's sender.
///
/// What a message says (recipient, subject, bodies, which hold codes and links) is sealed with
/// AES-256-GCM under the master key's mail subkey, the message id as associated data, so a row
/// cannot be read from the database nor moved onto another id. The sender is chosen at send time
/// (`mail.from`), so an operator can fix it while mail waits.
public final class MailQueue: Sendable {
    /// What a sealed message holds.
    struct Content: Codable, Equatable {
        var to: String
        var subject: String
        var text: String
        var html: String?
    }

    let outbox: any MailOutbox
    private let key: [UInt8]
    private let clock: any Clock
    private let random: any RandomSource
    /// Rung on every enqueue on this node; the sender waits on it between polls.
    let doorbell = Doorbell()

    /// A queue over `outbox`, sealing under `masterKey.mailEncryptionKey`.
    public init(outbox: any MailOutbox, masterKey: MasterKey, clock: any Clock, random: any RandomSource) {
        self.outbox = outbox
        self.key = masterKey.mailEncryptionKey
        self.clock = clock
        self.random = random
    }

    /// Seals a new message to `to` as an outbox row (not yet stored), due now: for a caller that
    /// stores it in its own transaction (`SQLMailOutbox.enqueue(_:on:)`) and then calls
    /// `notifySender()` after the commit.
    public func seal(to: MailAddress, subject: String, text: String, html: String? = nil) throws -> OutboxMessageRecord {
        let id = "mail_" + Base64URL.encode(random.bytes(16))
        let content = Content(to: to.address, subject: subject, text: text, html: html)
        let plaintext = try JSONEncoder().encode(content)
        let sealed = try AESGCM.seal([UInt8](plaintext), key: key, associatedData: Array(id.utf8))
        return OutboxMessageRecord(id: id, sealedMessage: sealed, createdAt: clock.now)
    }

    /// Seals and stores a message in its own transaction, wakes the sender, and returns the id.
    @discardableResult
    public func enqueue(to: MailAddress, subject: String, text: String, html: String? = nil) throws -> String {
        let record = try seal(to: to, subject: subject, text: text, html: html)
        try outbox.enqueue(record)
        notifySender()
        return record.id
    }

    /// Wakes this node's sender (a message was enqueued); other nodes find it when they poll.
    public func notifySender() {
        doorbell.ring()
    }

    /// The message a row holds; throws when it was not sealed under this master key for its id.
    func open(_ record: OutboxMessageRecord) throws -> Content {
        let plaintext = try AESGCM.open(record.sealedMessage, key: key, associatedData: Array(record.id.utf8))
        return try JSONDecoder().decode(Content.self, from: Data(plaintext))
    }
}

/// A wake-up signal between threads that is never lost: a ring before the wait still ends it.
final class Doorbell: Sendable {
    private let condition = NSCondition()
    private nonisolated(unsafe) var rung = false
    private nonisolated(unsafe) var closed = false

    /// Wakes the waiter (or the next wait).
    func ring() {
        condition.lock()
        rung = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends every wait for good.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until rung, closed or `seconds` passed; false once closed.
    func wait(seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !rung && !closed && Date() < deadline { _ = condition.wait(until: deadline) }
        rung = false
        return !closed
    }
}
