import Foundation

/// One message waiting in, or finished with, the mail outbox.
///
/// The message itself (recipient, subject, bodies: they hold codes and links) is only ever
/// stored sealed, AES-256-GCM under a subkey of the master key with `id` as associated data; the
/// store sees bytes it cannot read.
public struct OutboxMessageRecord: Sendable, Equatable {
    /// Where a message stands.
    public enum State: String, Sendable, CaseIterable {
        /// Waiting for its next attempt (or leased to a sender that is trying it now).
        case pending
        /// Handed to the mail server.
        case sent
        /// Given up: refused for good, or still failing after the retry window.
        case failed
    }

    /// The message id (`mail_` + base64url of 16 random bytes); printed and logged, reveals nothing.
    public let id: String
    /// The sealed message.
    public let sealedMessage: [UInt8]
    /// When it was enqueued: the retry window counts from here.
    public let createdAt: Date
    /// The attempts made so far.
    public var attempts: Int
    /// Not before this time is it tried (again); while leased, the end of the lease.
    public var nextAttemptAt: Date
    /// Where it stands.
    public var state: State
    /// When it was sent or given up.
    public var finishedAt: Date?

    /// A new message: `pending`, with no attempts, due at `createdAt`.
    public init(id: String, sealedMessage: [UInt8], createdAt: Date) {
        self.init(id: id, sealedMessage: sealedMessage, createdAt: createdAt, attempts: 0, nextAttemptAt: createdAt,
                  state: .pending, finishedAt: nil)
    }

    /// A message as stored.
    public init(id: String, sealedMessage: [UInt8], createdAt: Date, attempts: Int, nextAttemptAt: Date, state: State,
                finishedAt: Date?) {
        self.id = id
        self.sealedMessage = sealedMessage
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.state = state
        self.finishedAt = finishedAt
    }
}
