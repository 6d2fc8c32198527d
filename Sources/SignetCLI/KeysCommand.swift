import Foundation
import SignetCore
import SignetCrypto
import SignetServer
import SignetStore

/// `signet keys list|rotate|retire`, on the local data folder or, with `--admin-url`, a remote node.
enum KeysCommand {
    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(RemoteAdmin.options).union(["algorithm", "prepublish"]),
                                            flags: [])
        guard let action = arguments.positionals.first else { throw UsageError("keys needs list, rotate or retire") }
        if let remote = try RemoteAdmin.from(arguments) {
            try await remote.keys(action, arguments)
            return 0
        }
        let environment = try ServerEnvironment.open(try CommonOptions.configuration(arguments))
        let ring = environment.keyRing
        let auditor = Auditor(log: environment.storage.audit, clock: environment.clock)
        switch action {
        case "list":
            try ring.ensureSigningKeys(environment.requiredAlgorithms)
            list(try ring.records(), now: environment.clock.now)
        case "rotate":
            let algorithms: [SignatureAlgorithm]
            if let name = arguments.value("algorithm") {
                guard let algorithm = SignatureAlgorithm(rawValue: name) else {
                    throw UsageError("--algorithm must be one of \(SignatureAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                algorithms = [algorithm]
            } else {
                algorithms = environment.requiredAlgorithms
            }
            let prepublish = try arguments.integer("prepublish") ?? environment.configuration.keys.prepublishSeconds
            guard prepublish >= 0 else { throw UsageError("--prepublish must not be negative") }
            try ring.ensureSigningKeys(environment.requiredAlgorithms)
            for algorithm in algorithms {
                let record = try ring.rotate(algorithm, prepublishSeconds: prepublish)
                auditor.record("signing_key_rotated", detail: ["after": AuditSnapshot.key(record)])
                Output.print("rotated \(algorithm.rawValue): new key \(record.id) is published now and signs from \(stamp(record.activatesAt))")
            }
        case "retire":
            guard arguments.positionals.count == 2 else { throw UsageError("keys retire needs the key id (see signet keys list)") }
            let keyID = arguments.positionals[1]
            do {
                let replacement = try ring.retire(keyID: keyID)
                auditor.record("signing_key_retired", detail: ["kid": .string(keyID),
                                                               "replacement": replacement.map(AuditSnapshot.key) ?? .null])
                Output.print("retired \(keyID): it no longer signs and stays published for \(ring.retentionSeconds) s")
                if let replacement { Output.print("created \(replacement.id) (\(replacement.algorithm)), which signs from now on") }
            } catch StoreError.notFound {
                throw UsageError("no key has id \(keyID)")
            }
        default:
            throw UsageError("unknown keys action \"\(action)\"; use list, rotate or retire")
        }
        return 0
    }

    static func list(_ records: [SigningKeyRecord], now: Date) {
        Output.print("KID                                          ALG    STATUS     SIGNS FROM            UNPUBLISHED AFTER")
        for record in records.sorted(by: { $0.createdAt < $1.createdAt }) {
            let status = record.status(at: now).rawValue
            let kid = record.id.padding(toLength: 44, withPad: " ", startingAt: 0)
            let algorithm = record.algorithm.padding(toLength: 6, withPad: " ", startingAt: 0)
            Output.print("\(kid) \(algorithm) \(status.padding(toLength: 10, withPad: " ", startingAt: 0)) \(stamp(record.activatesAt))  \(record.removeAfter.map(stamp) ?? "-")")
        }
    }

    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }
}
