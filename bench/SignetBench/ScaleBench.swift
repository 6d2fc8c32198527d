import Foundation
import SignetCore
import SignetCrypto
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
               [--batch 50000] [--results FILE]   bulk-load the real schema (scale section)
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["config", "data", "tokens", "users", "expired", "client", "sample", "sample-file", "batch", "results"])
        let tokens = try options.int("tokens", default: 1_000_000)
        let plan = SeedPlan(tokens: tokens, users: try options.int("users", default: max(1, tokens / 10)),
                            expired: options.string("expired").flatMap(Int.init) ?? 0,
                            clientID: options.string("client") ?? "bench-app",
                            sample: options.string("sample").flatMap(Int.init) ?? 0,
                            batch: try options.int("batch", default: 50_000))
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
              + "\(rows) rows in " + String(format: "%.1f s (%.0f rows/s; of which %.1f s making the secondary indexes again)",
                                             seconds, Double(rows) / max(seconds, 0.001), loader.indexSeconds))
        var results = BenchResults(path: options.string("results"))
        results.record("seed.seconds", seconds)
        results.record("seed.rows", Double(rows))
        results.record("seed.index_seconds", loader.indexSeconds)
        try results.write()
        return 0
    }

    /// `resample --config FILE | --data DIR --sample N --sample-file F`: new live refresh tokens for
    /// N families of a seeded database, picked at random over the whole `grants` table (live, not
    /// revoked, not expired), so that another load can be run on it without seeding it again (the
    /// tokens of `seed`'s sample are spent once presented). Each picked family's live token row
    /// takes the hash of a new token string (`OpaqueTokens.makeRefresh`, as the server's name their
    /// family), in one transaction; the plaintexts go to `--sample-file`. A family's other rows
    /// (rotated tokens) stay as they are.
    static let resample = BenchCommand(name: "resample", summary: """
        resample --config FILE | --data DIR --sample N --sample-file F   new tokens for N random seeded families
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["config", "data", "sample", "sample-file"])
        let count = try options.int("sample", default: 20_000)
        guard let path = options.string("sample-file") else { throw BenchUsageError("resample needs --sample-file F") }
        var configuration = try options.string("config").map { try SignetConfiguration(contentsOf: $0) } ?? .defaults
        if let data = options.string("data") { configuration.dataDirectory = data }
        let environment = try ServerEnvironment.open(configuration)
        guard let storage = environment.storage as? any SQLStorage else { throw BenchUsageError("resample needs a SQL store") }
        let tokens = OpaqueTokens(hashKey: environment.masterKey.tokenHashKey, random: SystemRandomSource())
        let now = Date()
        let sample: [String] = try storage.stores.transaction { db in
            let highest = try db.one("SELECT max(id) FROM grants", []) { try $0.int64(0) } ?? 0
            guard highest > 0 else { return [] }
            var picked = Set<Int64>()
            var made: [String] = []
            // Random keys in batches; a key whose family is gone, revoked, expired or already picked is drawn again.
            for _ in 0..<400 where made.count < count {
                let keys = (0..<min(500, 2 * (count - made.count))).map { _ in Int64.random(in: 1...highest) }.filter { picked.insert($0).inserted }
                guard !keys.isEmpty else { continue }
                let list = keys.map(String.init).joined(separator: ", ")
                let live = try db.query("""
                    SELECT g.id, g.grant_id, t.token_hash FROM grants g JOIN refresh_tokens t ON t.grant_ref = g.id
                    WHERE g.id IN (\(list)) AND t.rotated_at IS NULL AND g.revoked_at IS NULL AND g.absolute_expires_at > $1
                    """, [now]) { row in (try row.int64(0), try row.text(1), try row.blob(2)) }
                for (key, grantID, old) in live where made.count < count {
                    let token = tokens.makeRefresh(grantID: grantID)
                    _ = try db.run("UPDATE refresh_tokens SET token_hash = $1 WHERE grant_ref = $2 AND token_hash = $3",
                                   [tokens.hash(token), key, old])
                    made.append(token)
                }
            }
            return made.shuffled()
        }
        guard sample.count == count else { throw BenchUsageError("found \(sample.count) live families, not \(count)") }
        try Data((sample.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        print("new tokens for \(count) random live families, in \(path)")
        return 0
    }

    /// `purge --config FILE | --data DIR [--batch 500] [--rest-factor 4] [--seconds N]`: one purge at
    /// the given `PurgePace` (what `signet purge` does at `PurgePace.standard`), for comparing paces
    /// under load; `--seconds` stops it at the first rest after that long (0: run to the end).
    /// Prints the rows deleted and the time taken.
    static let purge = BenchCommand(name: "purge", summary: """
        purge --config FILE | --data DIR [--batch 500] [--rest-factor 4] [--seconds 0]   one purge at a chosen pace
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["config", "data", "batch", "rest-factor", "seconds"])
        var configuration = try options.string("config").map { try SignetConfiguration(contentsOf: $0) } ?? .defaults
        if let data = options.string("data") { configuration.dataDirectory = data }
        let storage = try ConfiguredStorage.open(configuration, migrate: false).storage
        let restFactor = options.string("rest-factor").flatMap(Double.init) ?? PurgePace.standard.restFactor
        let limit = options.string("seconds").flatMap(Double.init) ?? 0
        let started = Date()
        let pace = PurgePace(batchSize: try options.int("batch", default: PurgePace.standard.batchSize), restFactor: restFactor) { seconds in
            Thread.sleep(forTimeInterval: seconds)
            return limit <= 0 || Date().timeIntervalSince(started) < limit
        }
        let removed = try storage.purge(before: Date().addingTimeInterval(-TimeInterval(configuration.maintenance.purgeRetention)), pace: pace)
        print("purged \(removed) rows in " + String(format: "%.1f s", Date().timeIntervalSince(started))
              + " (batch \(pace.batchSize), rest \(restFactor) x each batch)")
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

/// Writes a `SeedPlan` through `SQLStores.bulkInsert` (the stores' own columns and encodings),
/// fast:
/// - every family's grant id and refresh-token hash is made first (in memory: 54 bytes a family),
///   then the grants go in in `grant_id` order and the tokens in their grants' order (their primary
///   key is (`grant_ref`, `token_hash`), migration 19; each token names its family as the server's
///   do, `OpaqueTokens.makeRefresh`), so each primary
///   key's B-tree grows at its right edge instead of taking random inserts all over a tree larger than
///   any cache (the keys themselves stay random: `identifier()` and `OpaqueTokens`);
/// - the tables' secondary indexes are dropped first and made again at the end with their own
///   definitions, read from the schema (`sqlite_master` / `pg_indexes`), so each is one sort;
/// - SQLite, loading only: `synchronous = OFF`, `foreign_keys = OFF` (the rows are consistent by
///   construction), a 1 GiB page cache and `temp_store = MEMORY` on the writing connection, put back
///   after (`synchronous` to the configured level), then a `wal_checkpoint(TRUNCATE)`;
/// - one transaction per `plan.batch` rows of a table, multi-row inserts inside it.
final class SeedLoader {
    let plan: SeedPlan
    let stores: SQLStores
    let isSQLite: Bool
    let tokens: OpaqueTokens
    private(set) var rowCount = 0
    /// Seconds spent making the secondary indexes again (part of the total).
    private(set) var indexSeconds = 0.0
    private let scope = "openid profile email offline_access"
    private let now = Date()
    private let random = SystemRandomSource()
    /// The tables the loader writes; their secondary indexes are rebuilt after the load.
    private static let tables = ["users", "sessions", "grants", "refresh_tokens", "authorization_codes", "audit_events"]
    private static let idLength = 22
    private static let hashLength = 32

    init(plan: SeedPlan, stores: SQLStores, isSQLite: Bool, tokens: OpaqueTokens) {
        self.plan = plan
        self.stores = stores
        self.isSQLite = isSQLite
        self.tokens = tokens
    }

    /// Loads everything; returns the sample tokens (their plaintext, never stored).
    func run() throws -> [String] {
        let list = Self.tables.map { "'\($0)'" }.joined(separator: ", ")
        let indexes: [(name: String, definition: String)]
        if isSQLite {
            let synchronous = try stores.textsOnWriter("SELECT CAST(synchronous AS TEXT) FROM pragma_synchronous").first ?? "2"
            try stores.executeOnWriter("PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -1048576; PRAGMA temp_store = MEMORY")
            defer {
                try? stores.executeOnWriter("PRAGMA synchronous = \(Int(synchronous) ?? 2); PRAGMA foreign_keys = ON; PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT")
            }
            let query = "FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (\(list)) ORDER BY name"
            indexes = Array(zip(try stores.textsOnWriter("SELECT name \(query)"), try stores.textsOnWriter("SELECT sql \(query)")))
            return try load(indexes: indexes)
        } else {
            let query = """
                FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN (\(list))
                  AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname
                """
            indexes = Array(zip(try stores.textsOnWriter("SELECT indexname \(query)"), try stores.textsOnWriter("SELECT indexdef \(query)")))
            return try load(indexes: indexes)
        }
    }

    private func load(indexes: [(name: String, definition: String)]) throws -> [String] {
        for index in indexes { try stores.executeOnWriter("DROP INDEX \(index.name)") }
        let families = plan.tokens + plan.expired
        // Every family's grant id (base64url text) and token hash, and the sample tokens' plaintext.
        var grantIDs = [UInt8](repeating: 0, count: families * Self.idLength)
        var hashes = [UInt8](repeating: 0, count: families * Self.hashLength)
        var sample: [String] = []
        let every = plan.sample > 0 ? max(1, plan.tokens / plan.sample) : Int.max
        for index in 0..<families {
            let id = Array(random.identifier().utf8)
            let token = tokens.makeRefresh(grantID: String(decoding: id, as: UTF8.self))
            let hash = tokens.hash(token)
            guard id.count == Self.idLength, hash.count == Self.hashLength else { throw BenchUsageError("unexpected identifier or hash length") }
            grantIDs.replaceSubrange(index * Self.idLength..<(index + 1) * Self.idLength, with: id)
            hashes.replaceSubrange(index * Self.hashLength..<(index + 1) * Self.hashLength, with: hash)
            if index < plan.tokens, index % every == 0, sample.count < plan.sample { sample.append(token) }
        }
        let byGrant = Self.order(grantIDs, width: Self.idLength, count: families)
        func grantID(_ family: Int) -> String {
            String(decoding: grantIDs[family * Self.idLength..<(family + 1) * Self.idLength], as: UTF8.self)
        }
        func live(_ family: Int) -> Bool { family < plan.tokens }
        func created(_ family: Int) -> Date { live(family) ? now : now.addingTimeInterval(-90 * 86_400) }
        func expires(_ family: Int) -> Date { live(family) ? now.addingTimeInterval(30 * 86_400) : now.addingTimeInterval(-60 * 86_400) }

        var rows = SQLBulkRows()
        func flush() throws {
            guard rows.count > 0 else { return }
            try stores.bulkInsert(rows)
            rowCount += rows.count
            rows = SQLBulkRows()
        }
        // Users (in index order; their ids look random) and one live SSO session each (sorted by
        // id hash within a batch).
        // Each session's id hash is kept: a family names its user's session by its public id (43
        // characters, `SessionManager.publicID`), as a family from a browser sign-in does.
        var sessionHashes = [UInt8]()
        sessionHashes.reserveCapacity(plan.users * Self.hashLength)
        for index in 0..<plan.users {
            let id = userID(index)
            rows.users.append(UserRecord(id: id, email: "user\(index)@scale.example", emailVerified: true,
                                         name: "User \(index)", createdAt: now, updatedAt: now))
            let sessionHash = tokens.hash(tokens.make(.session))
            guard sessionHash.count == Self.hashLength else { throw BenchUsageError("unexpected session hash length") }
            sessionHashes.append(contentsOf: sessionHash)
            rows.sessions.append(SessionRecord(idHash: sessionHash, userID: id, createdAt: now,
                                               lastSeenAt: now, idleExpiresAt: now.addingTimeInterval(1_800),
                                               absoluteExpiresAt: now.addingTimeInterval(86_400), authTime: now, amr: ["pwd"]))
            if rows.count >= plan.batch {
                rows.sessions.sort { $0.idHash.lexicographicallyPrecedes($1.idHash) }
                try flush()
            }
        }
        rows.sessions.sort { $0.idHash.lexicographicallyPrecedes($1.idHash) }
        try flush()
        // Grants in grant_id order.
        for family in byGrant {
            let family = Int(family)
            let user = family % plan.users
            let session = SessionManager.publicID(idHash: Array(sessionHashes[user * Self.hashLength..<(user + 1) * Self.hashLength]))
            let terms = GrantTerms(clientID: plan.clientID, userID: userID(user), scope: scope, amr: ["pwd"],
                                   authTime: created(family), sessionID: session)
            rows.grants.append(GrantRecord(grantID: grantID(family), terms: terms, createdAt: created(family),
                                           absoluteExpiresAt: expires(family)))
            if rows.grants.count >= plan.batch { try flush() }
        }
        try flush()
        // Refresh tokens in (grant_ref, token_hash) order: their grants' order, one token a family.
        for family in byGrant {
            let family = Int(family)
            rows.tokens.append(RefreshTokenRecord(tokenHash: Array(hashes[family * Self.hashLength..<(family + 1) * Self.hashLength]),
                                                  grantID: grantID(family), scope: scope, createdAt: created(family),
                                                  expiresAt: expires(family)))
            if rows.tokens.count >= plan.batch { try flush() }
        }
        try flush()
        // Consumed codes (one per 100 live families) and audit events (one per 10), in family order.
        for family in 0..<plan.tokens where family % 10 == 0 {
            let user = userID(family % plan.users)
            if family % 100 == 0 {
                rows.codes.append(AuthorizationCodeRecord(
                    codeHash: tokens.hash(tokens.make(.code)), grantID: grantID(family),
                    terms: GrantTerms(clientID: plan.clientID, userID: user, scope: scope, amr: ["pwd"], authTime: now),
                    redirectURI: "http://127.0.0.1/callback", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                    createdAt: now, expiresAt: now.addingTimeInterval(600), consumedAt: now))
            }
            rows.audit.append(AuditEvent(event: "token_issued", actor: "client:\(plan.clientID)", subjectID: user,
                                         clientID: plan.clientID, address: "127.0.0.1", method: "authorization_code",
                                         detail: #"{"grant":"\#(grantID(family))"}"#, at: now))
            if rows.count >= plan.batch {
                rows.codes.sort { $0.codeHash.lexicographicallyPrecedes($1.codeHash) }
                try flush()
            }
        }
        rows.codes.sort { $0.codeHash.lexicographicallyPrecedes($1.codeHash) }
        try flush()
        let clock = ContinuousClock()
        let start = clock.now
        for index in indexes { try stores.executeOnWriter(index.definition) }
        indexSeconds = start.duration(to: clock.now).seconds
        if isSQLite { try stores.executeOnWriter("PRAGMA wal_checkpoint(TRUNCATE)") }
        return sample
    }

    /// The indices 0..<count ordered by their `width`-byte keys in `keys` (byte order: SQLite's
    /// BINARY collation of the text ids, and the order of the `BLOB` hashes).
    private static func order(_ keys: [UInt8], width: Int, count: Int) -> [Int32] {
        var order = (0..<count).map { Int32($0) }
        keys.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            order.sort { memcmp(base + Int($0) * width, base + Int($1) * width, width) < 0 }
        }
        return order
    }

    /// A stable user id per index that looks like a real one: 16 bytes in base64url (22
    /// characters, as `RandomSource.identifier()` makes them), the bytes two SplitMix64 outputs of
    /// the index (distinct per index, spread like random ones, so the ids share no prefix).
    private func userID(_ index: Int) -> String {
        func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9e37_79b9_7f4a_7c15
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        let high = mix(UInt64(index)), low = mix(UInt64(index) ^ 0x5555_5555_5555_5555)
        return Base64URL.encode((0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> (8 * ($0 % 8))) })
    }
}

extension Duration {
    /// Seconds as a `Double`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
