import SignetCrypto

/// A point of the audit chain kept outside the database: a sequence and the hash of the event
/// there, written `SEQUENCE:HEX` (the server logs one after every append; `signet audit verify
/// --expect-head` checks one).
public struct AuditAnchor: Sendable, Equatable, CustomStringConvertible {
    /// The event's sequence.
    public let sequence: Int64
    /// The event's hash (32 bytes).
    public let hash: [UInt8]

    /// An anchor.
    public init(sequence: Int64, hash: [UInt8]) {
        self.sequence = sequence
        self.hash = hash
    }

    /// Parses `SEQUENCE:HEX` (a positive sequence, 64 hex digits); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let sequence = Int64(parts[0]), sequence > 0, parts[1].utf8.count == 64,
              let hash = Hex.decode(parts[1].utf8) else { return nil }
        self.init(sequence: sequence, hash: hash)
    }

    /// `SEQUENCE:HEX`.
    public var description: String { "\(sequence):\(Hex.encode(hash))" }
}
