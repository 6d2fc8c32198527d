import Foundation
import SignetCrypto
import SignetJOSE
import SignetStore

extension AuditEvent {
    /// The event as one JSON object (what `signet audit list` prints per line and the admin API
    /// serves): `sequence`, `at` (RFC 3339, microseconds, UTC), `event`, the optional `actor`,
    /// `subject`, `client`, `address`, `user_agent`, `method`, `reason`, the `detail` object, and
    /// `prev_hash` and `hash` in lowercase hex.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "sequence": .number(Double(sequence)),
            "at": .string(Self.timestamp(at)),
            "event": .string(event),
            "detail": (try? JSONValue.parse(detail)) ?? .object([:]),
            "prev_hash": .string(Hex.encode(previousHash)),
            "hash": .string(Hex.encode(hash)),
        ]
        let optional: [(String, String?)] = [("actor", actor), ("subject", subjectID), ("client", clientID), ("address", address),
                                             ("user_agent", userAgent), ("method", method), ("reason", reason)]
        for (name, value) in optional { if let value { members[name] = .string(value) } }
        return .object(members)
    }

    /// `2026-12-01T14:15:23.123456Z`.
    static func timestamp(_ date: Date) -> String {
        let micros = date.microsecondsSince1970
        let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var text = String(formatter.string(from: whole).dropLast())   // without its "Z"
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: 6 - digits.count) + digits + "Z"
        return text
    }
}
