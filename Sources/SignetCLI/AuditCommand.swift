import Foundation
import SignetCore
import SignetCrypto
import SignetServer
import SignetStore

/// `signet audit verify|list`: checks the audit trail's hash chain, or prints events as JSON
/// lines (oldest first). Works while the server runs.
enum AuditCommand {
    static let usage = """
    usage: signet audit verify
           signet audit list [--since TIME] [--event NAME] [--subject USER] [--client ID] [--actor ACTOR] [--limit N]
                             [--admin-url URL --token TOKEN]

      verify   walk the hash chain from its checkpoint to its head; prints "audit chain OK" and the
               head, or the first broken sequence number and what is wrong there (exit status 1)
      list     the most recent events (default 100) matching every filter given, one JSON object
               per line, oldest first. TIME is RFC 3339 (2026-12-01T00:00:00Z) or an age: 90s, 30m,
               24h, 7d. ACTOR is cli, an admin client's id or console:USER-ID. With --admin-url (or SIGNET_ADMIN_URL) and an admin:audit:read token, from a
               remote node's admin API instead of the local data folder (verify is local only)
    """

    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(RemoteAdmin.options)
                                                .union(["since", "event", "subject", "client", "actor", "limit"]), flags: ["help"])
        if arguments.flag("help") {
            Output.print(usage)
            return 0
        }
        guard let action = arguments.positionals.first else { throw UsageError("audit needs verify or list\n\n\(usage)") }
        guard arguments.positionals.count == 1 else { throw UsageError("unexpected argument \(arguments.positionals[1])") }
        switch action {
        case "verify":
            if try RemoteAdmin.from(arguments) != nil { throw UsageError("audit verify reads the chain itself: run it on the data folder or the database, without --admin-url") }
            let storage = try ConfiguredStorage.open(try CommonOptions.configuration(arguments), migrate: true).storage
            switch try storage.audit.verifyAudit() {
            case .intact(let events, let sequence, let hash):
                Output.print("audit chain OK: \(events) event(s) checked, head \(sequence) \(Hex.encode(hash))")
                return 0
            case .broken(let broken):
                Output.print("audit chain BROKEN at sequence \(broken.sequence): \(describe(broken))")
                return 1
            }
        case "list":
            let now = SystemClock().now
            let since = try arguments.value("since").map { try parseSince($0, now: now) }
            let limit = try arguments.integer("limit") ?? 100
            guard limit > 0 else { throw UsageError("--limit must be at least 1") }
            if let remote = try RemoteAdmin.from(arguments) {
                let events = try await remote.audit(since: since, event: arguments.value("event"), subject: arguments.value("subject"),
                                                    client: arguments.value("client"), actor: arguments.value("actor"), limit: limit)
                for event in events.reversed() { Output.print(event.serializedString()) }
                return 0
            }
            let storage = try ConfiguredStorage.open(try CommonOptions.configuration(arguments), migrate: true).storage
            let events = try storage.audit.listAudit(AuditQuery(since: since, event: arguments.value("event"),
                                                                subjectID: arguments.value("subject"),
                                                                clientID: arguments.value("client"), actor: arguments.value("actor"),
                                                                limit: limit))
            for event in events.reversed() { Output.print(event.json.serializedString()) }
            return 0
        default:
            throw UsageError("unknown audit action \"\(action)\"; use verify or list")
        }
    }

    static func describe(_ broken: AuditVerification.Break) -> String {
        switch broken.problem {
        case .gap: "missing (the next stored event is \(broken.found ?? 0)): an event was deleted"
        case .link: "does not chain from the event before it: events were reordered, or one was inserted or replaced"
        case .edited: "its content does not match its hash: the event was edited"
        case .missingTail: "missing: the chain's recorded head is \(broken.found ?? 0), so events were deleted at the end"
        case .headMismatch: "is not the chain's recorded head: the last event was replaced"
        }
    }

    /// RFC 3339 (`2026-12-01T00:00:00Z`) or an age before `now` (`90s`, `30m`, `24h`, `7d`).
    static func parseSince(_ text: String, now: Date) throws -> Date {
        if let unit = text.last, let count = Int(text.dropLast()), count >= 0 {
            let seconds: Int? = switch unit {
            case "s": 1
            case "m": 60
            case "h": 3600
            case "d": 86_400
            default: nil
            }
            if let seconds { return now.addingTimeInterval(-TimeInterval(count) * TimeInterval(seconds)) }
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        throw UsageError("--since must be RFC 3339 (2026-12-01T00:00:00Z) or an age such as 24h or 7d, not \(text)")
    }
}
