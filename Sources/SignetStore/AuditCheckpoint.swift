import Foundation
import SignetCrypto

/// Where a purged chain starts: the last deleted event's sequence and hash (0 and `genesis` when
/// nothing was deleted) and, when known, that event's time. A keyed chain states it in the detail
/// of its `audit_chain_keyed` and `audit_purged` events, so moving it takes the master key.
public struct AuditCheckpoint: Sendable, Equatable {
    /// The last deleted event's sequence.
    public let sequence: Int64
    /// The last deleted event's hash.
    public let hash: [UInt8]
    /// The last deleted event's time, to the second (nil: not known, as for a chain purged before keying).
    public let at: Date?

    /// A checkpoint.
    public init(sequence: Int64, hash: [UInt8], at: Date?) {
        self.sequence = sequence
        self.hash = hash
        self.at = at
    }

    private struct Detail: Decodable {
        let checkpoint_sequence: Int64
        let checkpoint_hash: String
        let checkpoint_at: String?
    }

    /// The checkpoint a statement's `detail` names; nil when it names none.
    init?(detail: String) {
        guard let parsed = try? JSONDecoder().decode(Detail.self, from: Data(detail.utf8)),
              let hash = Hex.decode(parsed.checkpoint_hash.utf8) else { return nil }
        var at: Date?
        if let text = parsed.checkpoint_at {
            guard let date = ISO8601DateFormatter().date(from: text) else { return nil }
            at = date
        }
        self.init(sequence: parsed.checkpoint_sequence, hash: hash, at: at)
    }

    /// The statement's detail: this checkpoint and one more count (numbers, hex and an RFC 3339
    /// time only, so it is written without a JSON library).
    func detail(extra: (name: String, value: Int64)) -> String {
        var json = "{\"checkpoint_sequence\":\(sequence),\"checkpoint_hash\":\"\(Hex.encode(hash))\""
        if let at { json += ",\"checkpoint_at\":\"\(ISO8601DateFormatter().string(from: at))\"" }
        return json + ",\"\(extra.name)\":\(extra.value)}"
    }
}
