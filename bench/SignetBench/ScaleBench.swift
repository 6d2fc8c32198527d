import Foundation
import SignetCore
import SignetServer
import SignetSQL
import SignetSQLite
import SignetStore

/// The scale section's Swift half (scripts/bench.sh `section_scale`): the bulk loader, the load
/// generator over seeded refresh tokens, and start-up on a large database.
extension BenchCommand {
    /// `seed --config FILE --tokens N ...`: bulk-loads users, SSO sessions, grant families with
    /// one live refresh token each, consumed codes and audit events into the configured store
    /// (SQLite or PostgreSQL), through `ServerEnvironment.open` (the real migrations) and
    /// `SQLStores.bulkInsert` (the stores' own insert statements). Token hashes are the
    /// installation's (`OpaqueTokens` with the master key's token-hash key), so the server
    /// rotates the seeded tokens; `--sample N` of them, spread over the whole load, go to
    /// `--sample-file` for the load generator.
    static let seed = BenchCommand(name: "seed", summary: """
        seed --config FILE | --data DIR --tokens N [--users N] [--expired N] [--client bench-app] [--sample N --sample-file F]
               [--batch 20000] [--results FILE]   bulk-load the real schema (scale section)
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["config", "data", "tokens", "users", "expired", "client", "sample", "sample-file", "batch", "results"])
        let tokens = try options.int("tokens", default: 1_000_000)
        let plan = SeedPlan(tokens: tokens, users: try options.int("users", default: max(1, tokens / 10)),
                            expired: options.string("expired").flatMap(Int.init) ?? 0,
                            clientID: options.string("client") ?? "bench-app",
                            sample: options.string("sample").flatMap(Int.init) ?? 0,
                            batch: try options.int("batch", default: 20_000))
        var configuration = try options.string("config").map { try SignetConfiguration(contentsOf: $0) } ?? .defaults
        if let data = options.string("data") { configuration.dataDirectory = data }
        let environment = try ServerEnvironment.open(configuration)
        guard let storage = environment.storage as? any SQLStorage else { throw BenchUsageError("seed needs a SQL store") }
        let loader = SeedLoader(plan: plan, stores: storage.stores, isSQLite: storage is SQLiteStorage,
                                tokens: OpaqueTokens(hashKey: environment.masterKey.tokenHashKey, random: SystemRandomSource()))
        let clock = ContinuousClock()
        let start = clock.now
        let sample = try loader.run()
        let seconds = start.duration(to: clock.now).seconds
        if let path = options.string("sample-file") {
            try Data((sample.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        let rows = loader.rowCount
        print("seeded \(plan.users) users, \(plan.users) sessions, \(plan.tokens) live families (grant + refresh token), "
              + "\(plan.codes) consumed codes, \(plan.audit) audit events, \(plan.expired) expired families: "
              + "\(rows) rows in " + String(format: "%.1f s (%.0f rows/s)", seconds, Double(rows) / max(seconds, 0.001)))
        var results = BenchResults(path: options.string("results"))
        results.record("seed.seconds", seconds)
        results.record("seed.rows", Double(rows))
        try results.write()
        return 0
    }

    /// Workers for `load --seeded-tokens FILE`: the tokens split over the connections, each
    /// presented once (then each chain goes on from its last successor); no SSO session needed.
    static func seededWorkers(_ settings: LoadSettings, connections: Int, file: String) throws -> [LoadWorker] {
        let tokens = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        guard tokens.count >= connections else { throw BenchUsageError("\(file) has fewer tokens than connections") }
        let workers = (0..<connections).map { _ in LoadWorker(settings: settings, session: nil) }
        for (index, token) in tokens.enumerated() { workers[index % connections].seededRefreshTokens.append(token) }
        return workers
    }

    /// `startup-on --signet PATH --data DIR [--config FILE] [--runs 5] [--results FILE --key K]`:
    /// spawn to the first 200 from discovery on an existing (seeded) data folder.
    static let startupOn = BenchCommand(name: "startup-on", summary: """
        startup-on --signet PATH --data DIR [--config FILE] [--runs 5] [--results FILE --key NAME]   start-up on an existing database
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["signet", "data", "config", "runs", "results", "key"])
        guard let signet = options.string("signet"), let data = options.string("data") else {
            throw BenchUsageError("startup-on needs --signet PATH and --data DIR")
        }
        let bench = StartupBench(signet: signet, workDirectory: data,
                                 extraArguments: options.string("config").map { ["--config", $0] } ?? [])
        let samples = try (1...(try options.int("runs", default: 5))).map { _ in try bench.measure(dataDirectory: data) }
        let times = samples.map(\.spawnToReadyMilliseconds)
        let inServer = median(samples.compactMap(\.selfReportedMilliseconds))
        print("start to discovery on \(data): median " + String(format: "%.1f ms", median(times)) + " (runs: "
              + times.map { String(format: "%.1f", $0) }.joined(separator: ", ") + "); the server's own 'ready in': "
              + String(format: "%.0f ms", inServer))
        var results = BenchResults(path: options.string("results"))
        let key = "startup." + (options.string("key") ?? "existing")
        results.record(key + "_ms", median(times))
        results.record(key + "_in_server_ms", inServer)
        try results.write()
        return 0
    }
}

/// What `seed` writes: per live token one grant family; users, sessions (one per user),
/// consumed codes (one per 100 families) and audit events (one per 10) in proportion.
struct SeedPlan {
    var tokens: Int
    var users: Int
    /// Families already past their absolute expiry (grant + token: two rows each), for the purge.
    var expired: Int
    var clientID: String
    var sample: Int
    var batch: Int

    var codes: Int { tokens / 100 }
    var audit: Int { tokens / 10 }
}

/// Writes a `SeedPlan` in transactions of `plan.batch` families.
final class SeedLoader {
    let plan: SeedPlan
    let stores: SQLStores
    let isSQLite: Bool
    let tokens: OpaqueTokens
    private(set) var rowCount = 0
    private let scope = "openid profile email offline_access"
    private let now = Date()

    init(plan: SeedPlan, stores: SQLStores, isSQLite: Bool, tokens: OpaqueTokens) {
        self.plan = plan
        self.stores = stores
        self.isSQLite = isSQLite
        self.tokens = tokens
    }

    /// Loads everything; returns the sample tokens (their plaintext, never stored).
    func run() throws -> [String] {
        // Loader-only: a 1 GiB page cache on the writing connection while loading (random-key
        // inserts into large indexes), back to SQLite's default after.
        if isSQLite { try stores.executeOnWriter("PRAGMA cache_size = -1048576") }
        defer { if isSQLite { try? stores.executeOnWriter("PRAGMA cache_size = -2000") } }
        var sample: [String] = []
        let every = plan.sample > 0 ? max(1, plan.tokens / plan.sample) : Int.max
        var rows = SQLBulkRows()
        func flush() throws {
            guard rows.count > 0 else { return }
            try stores.bulkInsert(rows)
            rowCount += rows.count
            rows = SQLBulkRows()
        }
        for index in 0..<plan.users {
            let id = userID(index)
            rows.users.append(UserRecord(id: id, email: "user\(index)@scale.example", emailVerified: true,
                                         name: "User \(index)", createdAt: now, updatedAt: now))
            rows.sessions.append(SessionRecord(idHash: tokens.hash(tokens.make(.session)), userID: id, createdAt: now,
                                               lastSeenAt: now, idleExpiresAt: now.addingTimeInterval(1_800),
                                               absoluteExpiresAt: now.addingTimeInterval(86_400), authTime: now, amr: ["pwd"]))
            if rows.count >= plan.batch { try flush() }
        }
        try flush()
        for index in 0..<(plan.tokens + plan.expired) {
            let live = index < plan.tokens
            let token = tokens.make(.refresh)
            if live, index % every == 0, sample.count < plan.sample { sample.append(token) }
            let grantID = SystemRandomSource().identifier()
            let user = userID(index % plan.users)
            let created = live ? now : now.addingTimeInterval(-90 * 86_400)
            let expires = live ? now.addingTimeInterval(30 * 86_400) : now.addingTimeInterval(-60 * 86_400)
            rows.grants.append(GrantRecord(grantID: grantID, clientID: plan.clientID, userID: user, scope: scope,
                                           createdAt: created, absoluteExpiresAt: expires, sessionID: SystemRandomSource().identifier(),
                                           authTime: created, payload: #"{"amr":["pwd"]}"#, amr: ["pwd"]))
            rows.tokens.append(RefreshTokenRecord(tokenHash: tokens.hash(token), grantID: grantID, scope: scope,
                                                  createdAt: created, expiresAt: expires))
            if live, index % 100 == 0 {
                rows.codes.append(AuthorizationCodeRecord(
                    codeHash: tokens.hash(tokens.make(.code)), clientID: plan.clientID, userID: user,
                    redirectURI: "http://127.0.0.1/callback", scope: scope, codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                    nonce: nil, resource: nil, authTime: now, sessionID: nil, grantID: grantID, payload: #"{"amr":["pwd"]}"#,
                    createdAt: now, expiresAt: now.addingTimeInterval(600), consumedAt: now))
            }
            if live, index % 10 == 0 {
                rows.audit.append(AuditEvent(event: "token_issued", actor: "client:\(plan.clientID)", subjectID: user,
                                             clientID: plan.clientID, address: "127.0.0.1", method: "authorization_code",
                                             detail: #"{"grant":"\#(grantID)"}"#, at: now))
            }
            if rows.tokens.count >= plan.batch { try flush() }
        }
        try flush()
        if isSQLite { try stores.executeOnWriter("PRAGMA wal_checkpoint(TRUNCATE)") }
        return sample
    }

    /// A stable user id per index (22 characters, like `RandomSource.identifier()`).
    private func userID(_ index: Int) -> String {
        let digits = String(index)
        return "u" + String(repeating: "0", count: 21 - digits.count) + digits
    }
}

extension Duration {
    /// Seconds as a `Double`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
