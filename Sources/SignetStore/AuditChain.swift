import Foundation
import SignetCrypto

/// The audit trail's hash chain: each event's `hash` is SHA-256 over a canonical encoding of the
/// event and the previous event's hash, so editing, removing or reordering a stored event breaks
/// the chain at that event (docs/operations.md, "Audit trail", defines the encoding).
///
/// The encoding, in order: the ASCII tag `signet-audit-v1`; the previous hash (32 bytes); the
/// sequence and the time in microseconds since 1970, each as 8 bytes big-endian (two's
/// complement); then `event`, `actor`, `subject_id`, `client_id`, `address`, `user_agent`,
/// `method`, `reason` and `detail`, each as one byte 0 when absent, or one byte 1, its UTF-8
/// length as 4 bytes big-endian and its UTF-8 bytes.
public enum AuditChain {
    /// What the first event chains from: 32 zero bytes.
    public static let genesis = [UInt8](repeating: 0, count: 32)
    static let tag = Array("signet-audit-v1".utf8)

    /// The canonical bytes of `event` after `event.previousHash`.
    public static func encoding(of event: AuditEvent) -> [UInt8] {
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

    /// SHA-256 of `encoding(of: event)`.
    public static func hash(of event: AuditEvent) -> [UInt8] {
        Digest.sha256(encoding(of: event))
    }

    /// `event` as the link after (`sequence`, `hash`): numbered, chained and hashed, its time cut
    /// to whole microseconds (as both backends store it).
    public static func link(_ event: AuditEvent, after sequence: Int64, hash previous: [UInt8]) -> AuditEvent {
        var linked = event
        linked.sequence = sequence + 1
        linked.at = Date(microsecondsSince1970: event.at.microsecondsSince1970)
        linked.previousHash = previous
        linked.hash = hash(of: linked)
        return linked
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        bytes += withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    /// Checks stored events one at a time, in sequence order, from a checkpoint.
    public struct Verifier: Sendable {
        private var sequence: Int64
        private var hash: [UInt8]
        private(set) var checked = 0

        /// Starts after the checkpoint: the last purged event (or 0 and `genesis`).
        public init(afterSequence sequence: Int64, hash: [UInt8]) {
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
            if AuditChain.hash(of: event) != event.hash {
                return .init(sequence: event.sequence, problem: .edited, found: nil)
            }
            sequence = event.sequence
            hash = event.hash
            checked += 1
            return nil
        }

        /// After the last stored event: it must be the head the store recorded.
        public func finish(headSequence: Int64, headHash: [UInt8]) -> AuditVerification {
            if sequence != headSequence {
                return .broken(.init(sequence: sequence + 1, problem: .missingTail, found: headSequence))
            }
            if hash != headHash { return .broken(.init(sequence: sequence, problem: .headMismatch, found: nil)) }
            return .intact(events: checked, headSequence: sequence, headHash: hash)
        }
    }
}

/// What `AuditLog.verifyAudit()` found.
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
        /// For `gap`, the sequence number found instead; for `missingTail`, the recorded head.
        public let found: Int64?
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
    }
}
