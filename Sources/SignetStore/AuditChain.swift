import Foundation
import SignetCrypto

/// The audit trail's hash chain: each event's `hash` covers a canonical encoding of the event and
/// the previous event's hash, so editing, removing or reordering a stored event breaks the chain
/// at that event (docs/operations.md, "Audit trail", defines the encoding).
///
/// The encoding, in order: the ASCII tag (`signet-audit-v1` unkeyed, `signet-audit-v2` keyed); the
/// previous hash (32 bytes); the sequence and the time in microseconds since 1970, each as 8 bytes
/// big-endian (two's complement); then `event`, `actor`, `subject_id`, `client_id`, `address`,
/// `user_agent`, `method`, `reason` and `detail`, each as one byte 0 when absent, or one byte 1,
/// its UTF-8 length as 4 bytes big-endian and its UTF-8 bytes. An unkeyed link's hash is SHA-256 of
/// that; a keyed link's is HMAC-SHA-256 under `MasterKey.auditChainKey`, so rewriting the chain
/// takes the master key, not only the database.
public enum AuditChain {
    /// What the first event chains from: 32 zero bytes.
    public static let genesis = [UInt8](repeating: 0, count: 32)
    static let tag = Array("signet-audit-v1".utf8)
    static let keyedTag = Array("signet-audit-v2".utf8)

    /// The first keyed event: its detail names the checkpoint then and the last unkeyed sequence.
    public static let keyedEvent = "audit_chain_keyed"
    /// Appended by every purge of a keyed chain: its detail names the new checkpoint.
    public static let purgedEvent = "audit_purged"

    /// The canonical bytes of `event` after `event.previousHash` (unkeyed tag).
    public static func encoding(of event: AuditEvent) -> [UInt8] {
        encoding(of: event, tag: tag)
    }

    static func encoding(of event: AuditEvent, tag: [UInt8]) -> [UInt8] {
        var bytes = tag
        bytes += event.previousHash
        append(UInt64(bitPattern: event.sequence), to: &bytes)
        append(UInt64(bitPattern: event.at.microsecondsSince1970), to: &bytes)
        for field in [event.event, event.actor, event.subjectID, event.clientID, event.address, event.userAgent,
                      event.method, event.reason, event.detail] as [String?] {
            guard let field else { bytes.append(0); continue }
            let utf8 = Array(field.utf8)
            bytes.append(1)
            bytes += withUnsafeBytes(of: UInt32(truncatingIfNeeded: utf8.count).bigEndian, Array.init)
            bytes += utf8
        }
        return bytes
    }

    /// The unkeyed hash: SHA-256 of `encoding(of: event)`.
    public static func hash(of event: AuditEvent) -> [UInt8] {
        Digest.sha256(encoding(of: event))
    }

    /// The keyed hash: HMAC-SHA-256 under `key` of the encoding with the keyed tag.
    public static func keyedHash(of event: AuditEvent, key: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: key, message: encoding(of: event, tag: keyedTag))
    }

    /// `event` as the link after (`sequence`, `hash`): numbered, chained and hashed (keyed when
    /// `key` is given), its time cut to whole microseconds (as both backends store it).
    public static func link(_ event: AuditEvent, after sequence: Int64, hash previous: [UInt8], key: [UInt8]? = nil) -> AuditEvent {
        var linked = event
        linked.sequence = sequence + 1
        linked.at = Date(microsecondsSince1970: event.at.microsecondsSince1970)
        linked.previousHash = previous
        linked.hash = key.map { keyedHash(of: linked, key: $0) } ?? hash(of: linked)
        return linked
    }

    /// The `audit_chain_keyed` event that starts keying a chain whose head is (`sequence`, `hash`)
    /// and whose checkpoint is `checkpoint`.
    public static func keyingEvent(headSequence sequence: Int64, checkpoint: AuditCheckpoint, at: Date) -> AuditEvent {
        AuditEvent(event: keyedEvent, detail: checkpoint.detail(extra: ("unkeyed_through", sequence)), at: at)
    }

    /// The `audit_purged` event a purge of a keyed chain appends: the new checkpoint and how many
    /// events went.
    public static func purgedEvent(checkpoint: AuditCheckpoint, removed: Int, at: Date) -> AuditEvent {
        AuditEvent(event: purgedEvent, detail: checkpoint.detail(extra: ("events_deleted", Int64(removed))), at: at)
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        bytes += withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    /// Checks stored events one at a time, in sequence order, from a checkpoint.
    ///
    /// With a key: events before the first keyed one may be unkeyed (a chain written before
    /// keying); from there on every event must be keyed; the checkpoint must be the one the latest
    /// keyed statement (`audit_chain_keyed`, `audit_purged`) names, and older than the retention.
    public struct Verifier: Sendable {
        private let base: AuditCheckpoint
        private let key: [UInt8]?
        private let expectation: AuditExpectation
        private var sequence: Int64
        private var hash: [UInt8]
        private(set) var checked = 0
        private var keyedFrom: Int64?
        private var statement: AuditCheckpoint?

        /// Starts after the checkpoint: the last purged event (or 0 and `genesis`); `key` is the
        /// chain's key (nil: every event must be unkeyed).
        public init(afterSequence sequence: Int64, hash: [UInt8], key: [UInt8]? = nil, expecting expectation: AuditExpectation = .init()) {
            self.base = AuditCheckpoint(sequence: sequence, hash: hash, at: nil)
            self.key = key
            self.expectation = expectation
            self.sequence = sequence
            self.hash = hash
        }

        /// The next stored event; the break it shows, if any.
        public mutating func check(_ event: AuditEvent) -> AuditVerification.Break? {
            let expected = sequence + 1
            if event.sequence != expected {
                return .init(sequence: expected, problem: .gap, found: event.sequence)
            }
            if event.previousHash != hash {
                return .init(sequence: event.sequence, problem: .link, found: nil)
            }
            if let key, AuditChain.keyedHash(of: event, key: key) == event.hash {
                if keyedFrom == nil { keyedFrom = event.sequence }
                if event.event == AuditChain.keyedEvent || event.event == AuditChain.purgedEvent {
                    statement = AuditCheckpoint(detail: event.detail)
                }
            } else if AuditChain.hash(of: event) == event.hash {
                if key != nil, let keyedFrom { return .init(sequence: event.sequence, problem: .unkeyed, found: keyedFrom) }
            } else {
                return .init(sequence: event.sequence, problem: .edited, found: nil)
            }
            if let anchor = expectation.head, anchor.sequence == event.sequence, anchor.hash != event.hash {
                return .init(sequence: event.sequence, problem: .anchorMismatch, found: nil)
            }
            sequence = event.sequence
            hash = event.hash
            checked += 1
            return nil
        }

        /// After the last stored event: it must be the head the store recorded, and the head and
        /// checkpoint must meet the key's and the expectation's rules.
        public func finish(headSequence: Int64, headHash: [UInt8]) -> AuditVerification {
            if sequence != headSequence {
                return .broken(.init(sequence: sequence + 1, problem: .missingTail, found: headSequence))
            }
            if hash != headHash { return .broken(.init(sequence: sequence, problem: .headMismatch, found: nil)) }
            if let broken = keyedBreak() ?? anchorBreak() { return .broken(broken) }
            return .intact(events: checked, headSequence: sequence, headHash: hash)
        }

        private func keyedBreak() -> AuditVerification.Break? {
            guard key != nil, sequence > 0 else { return nil }
            if keyedFrom == nil, sequence > base.sequence { return .init(sequence: base.sequence + 1, problem: .notKeyed, found: nil) }
            guard let statement, statement.sequence == base.sequence, statement.hash == base.hash else {
                return .init(sequence: base.sequence, problem: .checkpointMoved, found: statement?.sequence)
            }
            if let retention = expectation.retentionSeconds, let at = statement.at,
               retention == 0 || at > expectation.now.addingTimeInterval(-TimeInterval(retention)) {
                return .init(sequence: base.sequence, problem: .withinRetention, found: nil)
            }
            return nil
        }

        private func anchorBreak() -> AuditVerification.Break? {
            if let anchor = expectation.head {
                if anchor.sequence > sequence { return .init(sequence: sequence + 1, problem: .behindAnchor, found: anchor.sequence) }
                if anchor.sequence < base.sequence || (anchor.sequence == base.sequence && anchor.hash != base.hash) {
                    return .init(sequence: anchor.sequence, problem: .anchorPurged, found: base.sequence)
                }
            }
            if let least = expectation.atLeast, least > sequence {
                return .init(sequence: sequence + 1, problem: .behindAnchor, found: least)
            }
            return nil
        }
    }
}

/// What `AuditLog.verifyAudit(expecting:)` found.
public enum AuditVerification: Sendable, Equatable {
    /// Every event chains from the checkpoint to the recorded head.
    case intact(events: Int, headSequence: Int64, headHash: [UInt8])
    /// The first place the chain is broken.
    case broken(Break)

    /// Where and how the chain breaks.
    public struct Break: Sendable, Equatable {
        /// The sequence number at which the chain breaks.
        public let sequence: Int64
        /// What is wrong there.
        public let problem: Problem
        /// For `gap`, the sequence number found instead; for `missingTail`, the recorded head;
        /// for `unkeyed`, the first keyed event; for `checkpointMoved`, the checkpoint the latest
        /// keyed statement names (nil: none does); for `behindAnchor`, the sequence expected; for
        /// `anchorPurged`, the checkpoint.
        public let found: Int64?

        /// A break.
        public init(sequence: Int64, problem: Problem, found: Int64?) {
            self.sequence = sequence
            self.problem = problem
            self.found = found
        }
    }

    /// Kinds of break.
    public enum Problem: String, Sendable, Equatable {
        /// The expected sequence number is missing (an event was deleted).
        case gap
        /// The event does not chain from the one before it (events reordered, or one inserted).
        case link
        /// The event's content does not match its hash (it was edited).
        case edited
        /// Events are missing at the end: the last stored event is before the recorded head.
        case missingTail = "missing_tail"
        /// The last stored event is the head's number but not its hash.
        case headMismatch = "head_mismatch"
        /// An event after the first keyed one has an unkeyed hash (written without the key).
        case unkeyed
        /// No event is keyed although the chain has events (rewritten without the key).
        case notKeyed = "not_keyed"
        /// The checkpoint is not the one the latest keyed statement names (a prefix was deleted).
        case checkpointMoved = "checkpoint_moved"
        /// The checkpoint's last purged event is younger than `audit.retention` allows.
        case withinRetention = "within_retention"
        /// The event at the anchor's sequence has another hash.
        case anchorMismatch = "anchor_mismatch"
        /// The chain ends before the anchor's (or the expected) sequence: the tail was cut.
        case behindAnchor = "behind_anchor"
        /// The anchor's event was purged: it can no longer be checked.
        case anchorPurged = "anchor_purged"
    }
}
