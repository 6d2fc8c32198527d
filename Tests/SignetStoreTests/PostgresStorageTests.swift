import Dispatch
import Foundation
@testable import SignetPostgres
@testable import SignetSQL
import SignetStore
import Synchronization
import SignetTesting
import Testing

/// What only the PostgreSQL store has: migrations under an advisory lock, a bounded connection
/// pool, SQLSTATE mapping, several stores (nodes) on one database. Runs when
/// `SIGNET_TEST_POSTGRES_URL` names a server (scripts/run-tests.sh starts one).
@Suite("PostgresStorage", .enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment), .endToEndLimit)
struct PostgresStorageTests {
    /// A fresh, empty database, dropped after `body`; `body` gets its name.
    func withDatabase(_ body: (String) throws -> Void) throws {
        let admin = try RealPart.postgres()
        let name = "signet_unit_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection.connect(conninfo: admin).execute("CREATE DATABASE \(name)")
        defer { try? PostgresConnection.connect(conninfo: admin).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        try body(name)
    }

    /// A store on `database` (a separate pool, as another node would have).
    func store(_ database: String, migrate: Bool = true, maxConnections: Int = 8, statementTimeout: TimeInterval = 10,
               conninfo: String? = nil) throws -> PostgresStorage {
        try PostgresStorage(conninfo: try conninfo ?? RealPart.postgres(), database: database, migrate: migrate,
                            maxConnections: maxConnections, statementTimeout: statementTimeout, dropOnDeinit: nil)
    }

    /// A store on `database` after `write` left it at schema `version`, migrated from there:
    /// exactly the later migrations run.
    func migrated(_ database: String, from version: Int,
                  writtenBy write: (any SQLConnection) throws -> Void) throws -> PostgresStorage {
        try store(database, migrate: false).withConnection { db in try write(db) }
        let store = try store(database, migrate: false)
        #expect(try store.currentVersion() == version)
        #expect(try store.migrate() == Array((version + 1)...SQLMigrations.latest))
        return store
    }

    /// Expects the error of a statement cancelled by `statement_timeout` (57014) or `lock_timeout` (55P03).
    func expectTimeLimit(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case StoreError.backend(let message)? = error as? StoreError else {
            Issue.record("expected StoreError.backend, got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains("57014") || message.contains("55P03"), "\(message)", sourceLocation: sourceLocation)
    }

    /// The server process ids and states of the connections to `database`, other than `db`'s own.
    func sessions(of database: String, seenFrom db: PostgresConnection) throws -> [String] {
        try db.query("SELECT state FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database]) {
            $0.optionalText(0) ?? ""
        }
    }

    @Test func migrationsApplyOnceAndAreIdempotent() throws {
        try withDatabase { database in
            let store = try store(database, migrate: false)
            #expect(try store.currentVersion() == 0)
            #expect(try store.migrate() == Array(1...SQLMigrations.latest))
            #expect(try store.migrate() == [])
            #expect(try store.currentVersion() == SQLMigrations.latest)
            // Another node finds nothing to do.
            #expect(try self.store(database, migrate: false).migrate() == [])
        }
    }

    @Test func nodesStartingTogetherMigrateExactlyOnce() throws {
        try withDatabase { database in
            let nodes = try (0..<6).map { _ in try store(database, migrate: false, maxConnections: 1) }
            let applied = Mutex<[[Int]]>([])
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: nodes.count) { index in
                do {
                    let versions = try nodes[index].migrate()
                    applied.withLock { $0.append(versions) }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 }.prefix(3))")
            #expect(applied.withLock { $0 }.filter { !$0.isEmpty } == [Array(1...SQLMigrations.latest)])
            #expect(try nodes[0].currentVersion() == SQLMigrations.latest)
        }
    }

    @Test func migrationTwoKeepsExistingGrantsAndClientsWithNoResources() throws {
        try withDatabase { database in
            // A database as version 1 left it, with a grant and a client in it.
            let old = try store(database, migrate: false)
            try old.withConnection { db in
                try db.execute(db.dialect.render(SQLMigrations.all[0].template))
                try db.execute("""
                    CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL);
                    INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0);
                    INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, auth_time, payload)
                    VALUES ('g-old', 'app', 'user-1', 'openid', 0, 9000000000000000, 0, '{}');
                    INSERT INTO clients (id, name, is_public, first_party, redirect_uris, post_logout_redirect_uris,
                        allowed_scopes, grant_types, token_endpoint_auth_method, id_token_algorithm, allow_headless,
                        created_at, updated_at, extra)
                    VALUES ('old-app', 'Old', TRUE, FALSE, '[]', '[]', '["openid"]', '["client_credentials"]', 'none', 'RS256',
                            FALSE, 0, 0, '{}');
                    """)
            }
            let store = try store(database, migrate: false)
            #expect(try store.migrate() == Array(2...SQLMigrations.latest))
            #expect(try store.refreshTokens.grant(id: "g-old")?.resources == [])
            #expect(try store.clients.client(id: "old-app")?.allowedResources == [])
        }
    }

    /// A database as migration 16 left it, with refresh tokens in it: migration 17 keeps every
    /// token's scope but stores it only where it differs from its grant's, the tokens rotate as
    /// before, and they still go with their grant.
    @Test func migrationSeventeenStoresATokensScopeOnlyWhereItDiffersFromItsGrants() throws {
        try withDatabase { database in
            let store = try migrated(database, from: 16, writtenBy: TokenScopeMigration.writeVersion16)
            try TokenScopeMigration.expectScopesKept(store.refreshTokens)
            try store.withConnection { db in
                #expect(try db.query(TokenScopeMigration.storedScopesQuery, []) { $0.optionalText(0) } == TokenScopeMigration.storedScopes)
                _ = try db.run("DELETE FROM grants WHERE grant_id = 'g-1'")
                #expect(try db.one("SELECT COUNT(*) FROM refresh_tokens", []) { try $0.int64(0) } == 0)
            }
        }
    }

    /// A database as migration 18 left it, with tokens issued before migration 19 (which name no
    /// family): migration 19 keys tokens under their grant; the old tokens are found by their hash
    /// alone, rotate, and their successors are new rows under the same family; the grant index is
    /// gone (the primary key serves it), the partial index of the old rows is there.
    @Test func migrationNineteenKeysTokensUnderTheirGrantAndKeepsOldTokensWorking() throws {
        try withDatabase { database in
            let store = try migrated(database, from: 18, writtenBy: TokenFamilyMigration.writeVersion18)
            try TokenFamilyMigration.expectOldTokensWork(store.refreshTokens)
            try store.withConnection { db in
                #expect(try db.query(TokenFamilyMigration.legacyQuery, []) { try $0.optionalInt64(0) } == TokenFamilyMigration.legacyMarks)
                let indexes = """
                    SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'refresh_tokens'
                      AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname
                    """
                #expect(try db.query(indexes, []) { try $0.text(0) } == ["refresh_tokens_legacy"])
                _ = try db.run("DELETE FROM grants WHERE grant_id = 'g-old'")
                #expect(try db.one("SELECT COUNT(*) FROM refresh_tokens", []) { try $0.int64(0) } == 1)
            }
        }
    }

    /// A database as migration 19 left it: migration 20 moves each grant's client, scope,
    /// resources and `amr` into a profile that families share, drops `payload`, keeps every index
    /// (none more on `grants`); everything reads back, tokens of both shapes rotate, and tokens
    /// still go with their grant.
    @Test func migrationTwentySharesGrantProfilesAndKeepsTokensRotating() throws {
        try withDatabase { database in
            let store = try migrated(database, from: 19, writtenBy: GrantProfileMigration.writeVersion19)
            func profiles() throws -> [[String]] {
                try store.withConnection { db in
                    try db.query(GrantProfileMigration.profilesQuery, []) { row in try (0..<4).map { try row.text($0) } }
                }
            }
            #expect(try profiles() == (try GrantProfileMigration.profiles))
            let references = try store.withConnection { db in
                try db.query(GrantProfileMigration.referencesQuery, []) { [try $0.text(0), String(try $0.int64(1))] }
            }
            #expect(references == GrantProfileMigration.references)
            let columns = """
                SELECT column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'grants' ORDER BY ordinal_position
                """
            let indexes = """
                SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN ('grants', 'refresh_tokens')
                  AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname
                """
            let (legacy, names, indexNames) = try store.withConnection { db in
                (try db.query(GrantProfileMigration.legacyQuery, []) { try $0.text(0) }, try db.query(columns, []) { try $0.text(0) },
                 try db.query(indexes, []) { try $0.text(0) })
            }
            #expect(legacy == GrantProfileMigration.legacyTokens)
            #expect(names == [
                "id", "created_at", "absolute_expires_at", "auth_time", "profile_ref", "revoked_at", "grant_id", "user_id",
                "revoke_reason", "session_id", "organization_id",
            ])
            #expect(indexNames == [
                "grants_expires", "grants_organization", "grants_revoked", "grants_session", "grants_user", "refresh_tokens_legacy",
            ])
            try GrantProfileMigration.expectFamiliesWork(store.refreshTokens)
            #expect(try profiles() == (try GrantProfileMigration.profilesAfter))
            try store.withConnection { db in
                _ = try db.run("DELETE FROM grants WHERE grant_id = 'g-a'")
                #expect(try db.one("SELECT COUNT(*) FROM refresh_tokens", []) { try $0.int64(0) } == 3)
            }
        }
    }

    /// A database as migration 17 left it, with grant families of each kind: migration 18 gives
    /// each grant an integer key that its tokens reference and empties the payloads; everything
    /// reads back, rotates, revokes and purges as before, and tokens still go with their grant.
    @Test func migrationEighteenKeysTokensToTheirGrantByInteger() throws {
        try withDatabase { database in
            let store = try migrated(database, from: 17, writtenBy: GrantKeyMigration.writeVersion17)
            let stored = try store.withConnection { db in
                try db.query(GrantKeyMigration.storedTokensQuery, []) { [try $0.text(0), $0.optionalText(1)] }
            }
            #expect(stored == GrantKeyMigration.storedTokens)
            try GrantKeyMigration.expectReadBack(store.refreshTokens)
            try GrantKeyMigration.expectFamiliesWork(store)
            try store.withConnection { db in
                #expect(try db.query(GrantKeyMigration.storedProfilesQuery, []) { [try $0.text(0), try $0.text(1), try $0.text(2)] }
                    == GrantKeyMigration.storedProfiles)
                let count = "SELECT COUNT(*) FROM refresh_tokens"
                #expect(try db.one(count, []) { try $0.int64(0) } == GrantKeyMigration.tokensLeft)
                _ = try db.run("DELETE FROM grants WHERE grant_id = 'g-live'")
                #expect(try db.one(count, []) { try $0.int64(0) } == GrantKeyMigration.tokensLeft - GrantKeyMigration.liveFamilyTokens)
            }
        }
    }

    /// A database as version 2 left it opens unchanged and migration 3 moves each grant's `amr`
    /// out of its JSON payload into the typed column.
    @Test func migrationThreeFillsTheGrantsAMRFromThePayload() throws {
        try withDatabase { database in
            let old = try store(database, migrate: false)
            try old.withConnection { db in
                for migration in SQLMigrations.all.prefix(2) { try db.execute(db.dialect.render(migration.template)) }
                try db.execute("""
                    CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL);
                    INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0), (2, 0);
                    INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, auth_time, payload)
                    VALUES ('g-pwd', 'app', 'user-1', 'openid', 0, 9000000000000000, 0, '{"amr":["pwd","mfa"]}'),
                           ('g-none', 'app', 'user-1', 'openid', 0, 9000000000000000, 0, '{}');
                    """)
            }
            let store = try store(database, migrate: false)
            #expect(try store.currentVersion() == 2)
            #expect(try store.migrate() == Array(3...SQLMigrations.latest))
            #expect(try store.refreshTokens.grant(id: "g-pwd")?.amr == ["pwd", "mfa"])
            #expect(try store.refreshTokens.grant(id: "g-none")?.amr == [])
        }
    }

    @Test func refusesSchemaNewerThanBuild() throws {
        try withDatabase { database in
            let first = try store(database)
            try first.withConnection { db in
                try db.run("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)", [SQLMigrations.latest + 1])
            }
            #expect(throws: StoreError.self) { try self.store(database) }
        }
    }

    @Test func constraintViolationsMapToStoreErrorsWithoutValues() throws {
        try withDatabase { database in
            let store = try store(database)
            try store.users.insertUser(Fixture.user("u1", email: "ada@example.com"))
            #expect(throws: StoreError.duplicate) { try store.users.insertUser(Fixture.user("u2", email: "ADA@example.com")) }
            // A token whose grant does not exist (foreign key).
            #expect(throws: StoreError.notFound) { try store.refreshTokens.insertRefreshToken(Fixture.token("orphan", grant: "none")) }
            // Any other failure is .backend, with the server's primary message but no DETAIL (values).
            do {
                try store.withConnection { db in try db.run("INSERT INTO users (id) VALUES ($1)", ["secret-id-value"]) }
                Issue.record("expected an error")
            } catch let error as StoreError {
                guard case .backend(let message) = error else {
                    Issue.record("expected .backend, got \(error)")
                    return
                }
                #expect(message.contains("23502"))   // not_null_violation
                #expect(!message.contains("secret-id-value"))
            }
            // After the failures the pooled connections still work.
            #expect(try store.users.user(email: "ada@example.com")?.id == "u1")
        }
    }

    /// A server that cannot be reached is `.unavailable` (the server answers 503 with `Retry-After`).
    @Test func unreachableServerIsUnavailable() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-pg-\(UUID().uuidString)").path
        do {
            _ = try PostgresStorage(conninfo: "host=\(missing) port=5432 user=postgres dbname=postgres connect_timeout=2")
            Issue.record("expected an error")
        } catch let error as StoreError {
            guard case .unavailable(let message) = error else {
                Issue.record("expected .unavailable, got \(error)")
                return
            }
            #expect(message.contains("cannot connect"))
        }
    }

    @Test func twoNodesOnOneDatabaseRedeemOnceWithinTheirPoolLimits() throws {
        try withDatabase { database in
            let first = try store(database, maxConnections: 2)
            let second = try store(database, maxConnections: 3)
            let count = 100
            for index in 0..<count { try first.codes.insertCode(Fixture.code("two-\(index)")) }
            try first.refreshTokens.createGrant(Fixture.grant("g"))
            try first.refreshTokens.insertRefreshToken(Fixture.token("rt", grant: "g"))

            let wins = Mutex<[Int]>([])
            let rotations = Mutex<[RotationResult]>([])
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                let store = thread.isMultiple(of: 2) ? first : second
                do {
                    for index in 0..<count {
                        if case .consumed = try store.codes.consumeCode(codeHash: hash("two-\(index)"), now: t0) {
                            wins.withLock { $0.append(index) }
                        }
                    }
                    let result = try store.refreshTokens.rotateRefreshToken(
                        tokenHash: hash("rt"), grantID: "g", clientID: "app", successorHash: hash("rt-next"),
                        successorExpiresAt: t0.addingTimeInterval(3_600), now: t0, graceSeconds: 30)
                    rotations.withLock { $0.append(result) }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 }.prefix(3))")
            #expect(wins.withLock { $0 }.sorted() == Array(0..<count))
            let outcomes = rotations.withLock { $0 }
            #expect(outcomes.filter { if case .rotated = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { if case .graceRetry = $0 { true } else { false } }.count == 7)
            // Idle connections stay open in the pools: never more than the two limits together.
            let open = try first.withConnection { db in
                try db.one("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = $1", [database]) { try $0.int64(0) }
            }
            #expect(try #require(open) <= 5)
            #expect(try #require(open) >= 2)
        }
    }

    /// PostgreSQL can find a user's families through `grants_user` (the first 11 characters of the
    /// user id, migration 21) in every statement that finds grants by their user: with sequential
    /// scans priced out, each plan names the index (an organization member's families may go
    /// through the partial `grants_organization` instead).
    @Test func statementsFindingGrantsByUserCanUseTheIndex() throws {
        try withDatabase { database in
            let store = try store(database)
            let user = "AAAAAAAAAAAAAAAAAAAAAA"
            let zero = Int64(0)
            var statements: [(String, [any SQLBindable])] = []
            statements.append((SQLRefreshTokenStore.activeRefreshByUser, [user, zero]))
            statements.append((SQLRefreshTokenStore.revokeByUser, [zero, "r", user]))
            statements.append((SQLRefreshTokenStore.revokeByUserAndOrganization, [zero, "r", user, "o"]))
            for sql in SQLUserStore.deleteWithUser where sql.contains("FROM grants ") { statements.append((sql, [user])) }
            #expect(statements.count == 4)
            try store.withConnection { db in
                try db.execute("SET enable_seqscan = off")
                for (sql, binds) in statements {
                    let plan = try db.query("EXPLAIN " + sql, binds) { try $0.text(0) }.joined(separator: "; ")
                    let indexes = sql.contains("organization_id") ? ["grants_user", "grants_organization"] : ["grants_user"]
                    #expect(indexes.contains { plan.contains(" on \($0)") || plan.contains(" using \($0)") }, "\(sql) -> \(plan)")
                }
                try db.execute("RESET enable_seqscan")
            }
        }
    }

    @Test func pooledConnectionsHaveTheTimeLimitsAndKeepTheOperatorsOptions() throws {
        let admin = try RealPart.postgres()
        // The operator's own server options in the connection string (URL or keyword form).
        let conninfo = admin.contains("://")
            ? admin + (admin.contains("?") ? "&" : "?") + "options=-c%20work_mem%3D5123kB"
            : admin + " options='-c work_mem=5123kB'"
        try withDatabase { database in
            let store = try store(database, statementTimeout: 2, conninfo: conninfo)
            let settings = try store.withConnection { db in
                try ["statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout", "work_mem"].map { name in
                    try db.one("SELECT current_setting($1)", [name]) { try $0.text(0) }
                }
            }
            #expect(settings == ["2s", "2s", "12s", "5123kB"])
            // No limit at all with 0.
            let unlimited = try self.store(database, statementTimeout: 0)
            #expect(try unlimited.withConnection { db in try db.one("SHOW statement_timeout", []) { try $0.text(0) } } == "0")
        }
    }

    /// A statement past the limit is cancelled, the transaction around it rolls back, and the
    /// connection goes back to the pool outside any transaction and keeps working.
    /// A write transaction's `BEGIN` goes out with its first statement (one pipeline): the
    /// statements still form one transaction, a first statement that fails leaves nothing behind
    /// and the connection idle and reusable, and a transaction that runs nothing sends nothing.
    @Test func theBeginTravelsWithTheFirstStatementAndKeepsTransactionsWhole() throws {
        try withDatabase { database in
            let store = try store(database, maxConnections: 1)
            let insert = """
                INSERT INTO grants (grant_id, user_id, created_at, absolute_expires_at, auth_time, profile_ref)
                VALUES ($1, 'user-1', 0, 9000000000000000, 0, (SELECT id FROM grant_profiles WHERE client_id = 'app'))
                """
            let pid = try store.withConnection { db in
                try db.run("INSERT INTO grant_profiles (client_id, scope, resources, amr) VALUES ('app', 'openid', '[]', '')")
                return try db.one("SELECT pg_backend_pid()", []) { try $0.int64(0) }
            }
            // One transaction: the first statement sees itself inside it, the second sees the first's row.
            try store.withConnection { db in
                try db.transaction {
                    #expect(db.isInTransaction)
                    let first = try db.one("SELECT txid_current()", []) { try $0.int64(0) }
                    try db.run(insert, ["one"])
                    let second = try db.one("SELECT txid_current()", []) { try $0.int64(0) }
                    #expect(first == second)
                }
            }
            #expect(try store.refreshTokens.grant(id: "one") != nil)
            // A failing first statement: the error is the statement's, nothing persists.
            #expect(throws: StoreError.duplicate) {
                try store.withConnection { db in try db.transaction { try db.run(insert, ["one"]) } }
            }
            // A failing later statement rolls back the earlier one.
            #expect(throws: StoreError.duplicate) {
                try store.withConnection { db in
                    try db.transaction {
                        try db.run(insert, ["two"])
                        try db.run(insert, ["one"])
                    }
                }
            }
            #expect(try store.refreshTokens.grant(id: "two") == nil)
            // A transaction whose body throws before any statement, and an empty one.
            struct Refused: Error {}
            #expect(throws: Refused.self) { try store.withConnection { db in try db.transaction { throw Refused() } } }
            try store.withConnection { db in try db.transaction { } }
            // The one pooled connection is the same, idle, and outside any transaction.
            let (again, inTransaction) = try store.withConnection { db in
                (try db.one("SELECT pg_backend_pid()", []) { try $0.int64(0) }, db.isInTransaction)
            }
            #expect(again == pid && !inTransaction)
            let admin = try PostgresConnection.connect(conninfo: try RealPart.postgres(), database: database)
            // A backend whose client has closed (the migrations' own connection) leaves
            // pg_stat_activity when its process has exited, a moment later: wait for that, up to 5 s.
            var seen = try sessions(of: database, seenFrom: admin)
            for _ in 0..<100 where seen != ["idle"] {
                Thread.sleep(forTimeInterval: 0.05)
                seen = try sessions(of: database, seenFrom: admin)
            }
            #expect(seen == ["idle"])
            try store.refreshTokens.createGrant(Fixture.grant("after"))
            #expect(try store.refreshTokens.grant(id: "after") != nil)
        }
    }

    /// Writes held back in a transaction (`SQLConnection.write`) go out with its next statement or
    /// its `COMMIT`, in one pipeline: nothing reaches the server before then; a row check that
    /// fails throws its own error, and it or any failing statement of the pipeline rolls back the
    /// whole transaction (the `COMMIT` sent with them never happens), as does a failure inside a
    /// savepoint only that savepoint; the connection comes back idle and reusable.
    @Test func heldWritesTravelWithTheCommitAndAFailureRollsBackEverything() throws {
        try withDatabase { database in
            let store = try store(database, maxConnections: 1)
            try store.withConnection { db in try db.execute("CREATE TABLE probe (id TEXT PRIMARY KEY, note TEXT)") }
            let insert = "INSERT INTO probe (id) VALUES ($1)"
            let note = "UPDATE probe SET note = $1 WHERE id = $2"
            let changed = StoreError.backend("the probe changed")
            func notes() throws -> [String] {
                try store.withConnection { db in
                    try db.query("SELECT id || ':' || COALESCE(note, '-') FROM probe ORDER BY id", []) { try $0.text(0) }
                }
            }
            let admin = try PostgresConnection.connect(conninfo: try RealPart.postgres(), database: database)
            let pid = try store.withConnection { db in try db.one("SELECT pg_backend_pid()", []) { try $0.int64(0) } }
            // Held until the commit: the server has seen nothing of the transaction, not even its BEGIN.
            try store.withConnection { db in
                try db.transaction {
                    try db.write(insert, ["one"])
                    try db.write(note, ["first", "one"], changing: 1, else: changed)
                    #expect(db.isInTransaction)
                    #expect(try sessions(of: database, seenFrom: admin) == ["idle"])
                }
            }
            #expect(try notes() == ["one:first"])
            // A read sends what is held first, in the same transaction.
            try store.withConnection { db in
                try db.transaction {
                    try db.write(insert, ["two"])
                    #expect(try db.one("SELECT count(*) FROM probe", []) { try $0.int64(0) } == 2)
                    #expect(try sessions(of: database, seenFrom: admin) == ["idle in transaction"])
                    try db.write(note, ["second", "two"], changing: 1, else: changed)
                }
            }
            #expect(try notes() == ["one:first", "two:second"])
            // A row check that fails (no row, or more rows than expected) throws its error and
            // rolls back the writes before and after it.
            #expect(throws: changed) {
                try store.withConnection { db in
                    try db.transaction {
                        try db.write(insert, ["three"])
                        try db.write(note, ["lost", "nobody"], changing: 1, else: changed)
                        try db.write(note, ["lost", "one"], changing: 1, else: changed)
                    }
                }
            }
            #expect(throws: changed) {
                try store.withConnection { db in
                    try db.transaction {
                        try db.write(note, ["lost", "one"], changing: 1, else: changed)
                        try db.write("UPDATE probe SET note = $1", ["lost"], changing: 1, else: changed)
                    }
                }
            }
            #expect(try notes() == ["one:first", "two:second"])
            // A failing later statement: its own error, and the checked write before it is undone.
            #expect(throws: StoreError.duplicate) {
                try store.withConnection { db in
                    try db.transaction {
                        try db.write(note, ["lost", "one"], changing: 1, else: changed)
                        try db.write(insert, ["one"])
                    }
                }
            }
            // A failing held write thrown by the read it went out with; nothing after it runs.
            #expect(throws: StoreError.duplicate) {
                try store.withConnection { db in
                    try db.transaction {
                        try db.write(insert, ["two"])
                        _ = try db.one("SELECT count(*) FROM probe", []) { try $0.int64(0) }
                        Issue.record("the read after a failed held write returned")
                    }
                }
            }
            #expect(try notes() == ["one:first", "two:second"])
            // In a savepoint, a failure undoes only the savepoint; a savepoint that throws drops
            // the writes it held.
            struct Refused: Error {}
            try store.withConnection { db in
                try db.transaction {
                    try db.write(insert, ["outer"])
                    #expect(throws: StoreError.duplicate) { try db.transaction { try db.write(insert, ["one"]) } }
                    #expect(throws: Refused.self) {
                        try db.transaction {
                            try db.write(insert, ["dropped"])
                            throw Refused()
                        }
                    }
                    try db.write(note, ["kept", "outer"], changing: 1, else: changed)
                }
            }
            #expect(try notes() == ["one:first", "outer:kept", "two:second"])
            // Outside a transaction the write runs at once: a wrong count is thrown, the write stands.
            #expect(throws: changed) {
                try store.withConnection { db in try db.write("UPDATE probe SET note = $1", ["all"], changing: 1, else: changed) }
            }
            #expect(try notes() == ["one:all", "outer:all", "two:all"])
            // The one pooled connection is the same, idle, and outside any transaction.
            let (again, inTransaction) = try store.withConnection { db in
                (try db.one("SELECT pg_backend_pid()", []) { try $0.int64(0) }, db.isInTransaction)
            }
            #expect(again == pid && !inTransaction)
            #expect(try sessions(of: database, seenFrom: admin) == ["idle"])
        }
    }

    @Test func aStatementPastTheLimitFailsAndRollsBack() throws {
        try withDatabase { database in
            let store = try store(database, maxConnections: 1, statementTimeout: 1)
            let pid = try store.withConnection { db in try db.one("SELECT pg_backend_pid()", []) { try $0.int64(0) } }
            do {
                try store.withConnection { db in
                    try db.transaction {
                        try db.run("""
                            INSERT INTO grants (grant_id, user_id, created_at, absolute_expires_at, auth_time, profile_ref)
                            VALUES ('half-way', 'user-1', 0, 9000000000000000, 0, 0)
                            """)
                        try db.run("SELECT pg_sleep(30)")
                    }
                }
                Issue.record("a 30-second statement outlived a 1-second limit")
            } catch {
                expectTimeLimit(error)
            }
            // Outside a transaction too.
            do {
                try store.withConnection { db in try db.run("SELECT pg_sleep(30)") }
                Issue.record("a 30-second statement outlived a 1-second limit")
            } catch {
                expectTimeLimit(error)
            }
            #expect(try store.refreshTokens.grant(id: "half-way") == nil)
            try store.refreshTokens.createGrant(Fixture.grant("after"))
            #expect(try store.refreshTokens.grant(id: "after") != nil)
            // The same connection, back in the pool, idle.
            #expect(try store.withConnection { db in try db.one("SELECT pg_backend_pid()", []) { try $0.int64(0) } } == pid)
            let admin = try PostgresConnection.connect(conninfo: try RealPart.postgres(), database: database)
            #expect(try sessions(of: database, seenFrom: admin) == ["idle"])
        }
    }

    /// A row locked by another connection makes the operation that needs it fail after the lock
    /// timeout instead of waiting; nothing changes, and once the lock is gone the same call succeeds.
    @Test func aRowLockedElsewhereFailsAfterTheLockTimeoutAndChangesNothing() throws {
        try withDatabase { database in
            let store = try store(database, statementTimeout: 1)
            try store.refreshTokens.createGrant(Fixture.grant("g"))
            try store.refreshTokens.insertRefreshToken(Fixture.token("rt", grant: "g"))
            let holder = try PostgresConnection.connect(conninfo: try RealPart.postgres(), database: database)
            // Were the store to wait for the lock after all, the server ends this transaction after
            // 30 s and the rotation below succeeds: the test fails rather than hangs.
            try holder.execute("SET idle_in_transaction_session_timeout = '30s'")
            try holder.execute("BEGIN")
            // Rotation locks the token, then its grant: the second lock is the one it cannot get.
            _ = try holder.query("SELECT grant_id FROM grants WHERE grant_id = $1 FOR UPDATE", ["g"]) { _ in () }
            func rotate() throws -> RotationResult {
                try store.refreshTokens.rotateRefreshToken(tokenHash: hash("rt"), grantID: "g", clientID: "app", successorHash: hash("rt-next"),
                                             successorExpiresAt: t0.addingTimeInterval(3_600), now: t0, graceSeconds: 30)
            }
            do {
                let result = try rotate()
                Issue.record("rotated past a lock held elsewhere: \(result)")
            } catch {
                expectTimeLimit(error)
            }
            // A plain update of the locked row, outside a transaction, fails the same way.
            #expect(throws: StoreError.self) { _ = try store.refreshTokens.revokeGrant(id: "g", reason: "test", now: t0) }
            #expect(try store.refreshTokens.refreshToken(hash: hash("rt"), grantID: "g")?.rotatedAt == nil)
            #expect(try store.refreshTokens.refreshToken(hash: hash("rt-next"), grantID: "g") == nil)
            #expect(try store.refreshTokens.grant(id: "g")?.revokedAt == nil)
            #expect(try sessions(of: database, seenFrom: holder).allSatisfy { $0 == "idle" })

            try holder.execute("ROLLBACK")
            guard case .rotated = try rotate() else {
                Issue.record("the rotation failed once the lock was released")
                return
            }
            #expect(try store.refreshTokens.refreshToken(hash: hash("rt-next"), grantID: "g") != nil)
        }
    }

    /// Migrations run without the limits: a node waits for another node's migration however long.
    @Test func migrationsWaitForTheAdvisoryLockBeyondTheLimit() throws {
        try withDatabase { database in
            let store = try store(database, migrate: true, statementTimeout: 1)
            let other = try PostgresConnection.connect(conninfo: try RealPart.postgres(), database: database)
            try other.run("SELECT pg_advisory_lock($1)", [PostgresStorage.migrationLockKey])
            let released = DispatchSemaphore(value: 0)
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) {
                _ = try? other.run("SELECT pg_advisory_unlock($1)", [PostgresStorage.migrationLockKey])
                released.signal()
            }
            #expect(try store.migrate() == [])
            released.wait()
        }
    }
}
