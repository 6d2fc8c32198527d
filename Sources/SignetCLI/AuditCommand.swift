import Foundation
import SignetCore
import SignetServer
import SignetStore

/// `signet audit verify|list`: checks the audit trail's hash chain, or prints events as JSON
/// lines (oldest first). Works while the server runs.
enum AuditCommand {
    static let usage = """
    usage: signet audit verify [--expect-head SEQ:HASH] [--expect-at-least SEQ]
           signet audit list [--since TIME] [--event NAME] [--subject USER] [--client ID] [--actor ACTOR] [--limit N]
                             [--admin-url URL --token TOKEN]

      verify   walk the hash chain from its checkpoint to its head with the master key's chain key;
               prints "audit chain OK" and the head (SEQ:HASH, as the server's "audit anchor" log
               lines), or the first broken sequence number and what is wrong there (exit status 1).
               --expect-head SEQ:HASH: an anchor kept elsewhere, whose event must still be in the
               chain with that hash; --expect-at-least SEQ: the head must have reached SEQ
      list     the most recent events (default 100) matching every filter given, one JSON object
               per line, oldest first. TIME is RFC 3339 (2026-12-01T00:00:00Z) or an age: 90s, 30m,
               24h, 7d. ACTOR is cli, an admin client's id or console:USER-ID. With --admin-url (or SIGNET_ADMIN_URL) and an admin:audit:read token, from a
               remote node's admin API instead of the local data folder (verify is local only)
    """

    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(RemoteAdmin.options)
                                                .union(["since", "event", "subject", "client", "actor", "limit", "expect-head", "expect-at-least"]), flags: ["help"])
        if arguments.flag("help") {
            Output.print(usage)
            return 0
        }
        guard let action = arguments.positionals.first else { throw UsageError("audit needs verify or list\n\n\(usage)") }
        guard arguments.positionals.count == 1 else { throw UsageError("unexpected argument \(arguments.positionals[1])") }
        switch action {
        case "verify":
            if try RemoteAdmin.from(arguments) != nil { throw UsageError("audit verify reads the chain itself: run it on the data folder or the database, without --admin-url") }
            let configuration = try CommonOptions.configuration(arguments)
            var expectation = AuditExpectation(retentionSeconds: configuration.audit.retention, now: SystemClock().now)
            if let text = arguments.value("expect-head") {
                guard let anchor = AuditAnchor(parsing: text) else {
                    throw UsageError("--expect-head needs SEQ:HASH, a sequence and 64 hex digits, as an \"audit anchor\" log line prints")
                }
                expectation.head = anchor
            }
            if let least = try arguments.integer("expect-at-least") {
                guard least > 0 else { throw UsageError("--expect-at-least must be at least 1") }
                expectation.atLeast = Int64(least)
            }
            let masterKey = try ServerEnvironment.loadMasterKey(configuration, create: false)
            let storage = try ConfiguredStorage.open(configuration, migrate: true).storage
            storage.audit.keying.bind(key: masterKey.auditChainKey)
            switch try storage.audit.verifyAudit(expecting: expectation) {
            case .intact(let events, let sequence, let hash):
                Output.print("audit chain OK: \(events) event(s) checked, head \(AuditAnchor(sequence: sequence, hash: hash))")
                return 0
            case .broken(let broken):
                Output.print("audit chain BROKEN at sequence \(broken.sequence): \(describe(broken, retention: configuration.audit.retention))")
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

    static func describe(_ broken: AuditVerification.Break, retention: Int) -> String {
        let found = broken.found.map(String.init) ?? "none"
        return switch broken.problem {
        case .gap: "missing (the next stored event is \(found)): an event was deleted"
        case .link: "does not chain from the event before it: events were reordered, or one was inserted or replaced"
        case .edited: "its content does not match its hash: the event was edited (or the master key is not this trail's)"
        case .missingTail: "missing: the chain's recorded head is \(found), so events were deleted at the end"
        case .headMismatch: "is not the chain's recorded head: the last event was replaced"
        case .unkeyed: "its hash is not keyed although the chain is keyed from sequence \(found): it was written without the master key"
        case .notKeyed: "no event is keyed with the master key: the trail was rewritten without it (or no Signet of this version has recorded an event yet)"
        case .checkpointMoved: "the checkpoint is not the one the latest purge recorded (\(found)): the oldest events were deleted and the checkpoint moved past them"
        case .withinRetention: "the last purged event is younger than audit.retention (\(retention) s) allows: events were deleted before their time (or audit.retention was lengthened since that purge)"
        case .anchorMismatch: "its hash is not the anchor's: the chain was rewritten from here or before"
        case .behindAnchor: "missing: the chain ends before the expected sequence \(found), so events were deleted at the end and the head moved back"
        case .anchorPurged: "the anchor's event was purged (the checkpoint is \(found)): check a newer anchor"
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
