import Foundation
import SignetCore
import SignetServer
import SignetStore

/// `signet purge [--rest N]`: deletes expired rows once, with the configured
/// `maintenance.purge_retention`, at the configured pace (`maintenance.purge_rest`, or `--rest`:
/// 0 for a maintenance window), and prints how many it deleted. For installations that set
/// `maintenance.purge_interval` to 0 and purge from cron instead, or to reclaim space right away.
enum PurgeCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(["rest"]), flags: [])
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument \(arguments.positionals[0])") }
        var configuration = try CommonOptions.configuration(arguments)
        if let rest = arguments.value("rest") {
            guard let factor = Int(rest), Settings.purgeRest.kind.range?.contains(factor) == true else {
                throw UsageError("--rest needs a whole number from 0 to 100")
            }
            configuration.maintenance.purgeRest = factor
        }
        let masterKey = try ServerEnvironment.loadMasterKey(configuration)
        let storage = try ConfiguredStorage.open(configuration, migrate: true).storage
        storage.audit.keying.bind(key: masterKey.auditChainKey)
        let retention = configuration.maintenance.purgeRetention
        let now = SystemClock().now
        let removed = try storage.purge(before: now.addingTimeInterval(-TimeInterval(retention)), pace: configuration.maintenance.purgePace)
        Output.print("purged \(removed) expired row(s) (kept \(retention) s past expiry)")
        let auditRetention = configuration.audit.retention
        if auditRetention > 0 {
            let events = try storage.audit.purgeAudit(before: now.addingTimeInterval(-TimeInterval(auditRetention)), now: now)
            Output.print("purged \(events) audit event(s) older than \(auditRetention) s (the chain's checkpoint moved with them)")
        }
        return 0
    }
}
