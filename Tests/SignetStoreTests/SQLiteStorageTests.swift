import Dispatch
import Foundation
@testable import SignetSQLite
@testable import SignetSQL
import SignetStore
import SignetTesting
import Synchronization
import Testing

/// What only the SQLite store has: files, migrations, several handles on one database.
@Suite("SQLiteStorage", .endToEndLimit)
struct SQLiteStorageTests {
    /// A fresh directory path (not yet created) removed after `body`.
    func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signet-sqlite-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    /// A store on a file in `directory` that `write` left at schema `version`, migrated from there:
    /// exactly the later migrations run. Also the connection that wrote the old schema.
    func migrated(from version: Int, in directory: String,
                  writtenBy write: (SQLiteConnection) throws -> Void) throws -> (SQLiteStorage, SQLiteConnection) {
        let path = directory + "/db.sqlite3"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let connection = try SQLiteConnection.open(path: path)
        try write(connection)
        let store = try SQLiteStorage(path: path, migrate: false)
        #expect(try store.currentVersion() == version)
        #expect(try store.migrate() == Array((version + 1)...SQLMigrations.latest))
        return (store, connection)
    }

    @Test func migrationsApplyOnceAndAreIdempotent() throws {
        try withDirectory { directory in
            let path = directory + "/db.sqlite3"
            let store = try SQLiteStorage(path: path, migrate: false)
            #expect(try store.currentVersion() == 0)
            let applied = try store.migrate()
            #expect(applied == Array(1...SQLMigrations.latest))
            #expect(try store.migrate() == [])
            #expect(try store.currentVersion() == SQLMigrations.latest)
            // A second handle (another process, say) finds nothing to do.
            let other = try SQLiteStorage(path: path, migrate: false)
            #expect(try other.migrate() == [])
        }
    }

    @Test func createsPrivateFileInNewDirectoryAndUsesWAL() throws {
        try withDirectory { directory in
            let path = directory + "/nested/db.sqlite3"
            let store = try SQLiteStorage(path: path)
            try store.users.insertUser(Fixture.user("u1", email: "ada@example.com"))
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            #expect(mode & 0o077 == 0, "database file mode \(String(mode, radix: 8))")
            let directoryMode = (try FileManager.default.attributesOfItem(atPath: directory + "/nested")[.posixPermissions]
                                 as? NSNumber)?.intValue ?? -1
            #expect(directoryMode & 0o077 == 0)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            withExtendedLifetime(store) {}
        }
    }

    /// Commits that land while the background checkpoint copies the WAL must not keep the WAL from
    /// starting over: the pass finishes under the write lock, so the next write begins the WAL
    /// again instead of appending to it (under steady load it grew without bound).
    @Test func checkpointPassLetsTheWALStartOverDespiteConcurrentCommits() throws {
        let store = try SQLiteStorage.temporary()
        try store.database.writer.withLock { try $0.execute("PRAGMA wal_autocheckpoint = 0") }
        for index in 0..<40 { try store.users.insertUser(Fixture.user("u\(index)", email: "u\(index)@example.com")) }
        let checkpointer = try SQLiteConnection.open(path: store.path)
        SQLiteCheckpointer.pass(checkpointer, database: store.database) {
            for index in 40..<50 { try? store.users.insertUser(Fixture.user("u\(index)", email: "u\(index)@example.com")) }
        }
        try store.users.insertUser(Fixture.user("last", email: "last@example.com"))
        // Frames in the WAL now (column 1 of wal_checkpoint): one insert's worth after a restart,
        // every insert's (at least one frame per commit, so 51 or more) without one.
        let frames = try checkpointer.one("PRAGMA wal_checkpoint(PASSIVE)", []) { try $0.int64(1) } ?? -1
        #expect(frames > 0 && frames < 20, "WAL frames after the pass and one insert: \(frames)")
        #expect(try store.users.user(id: "u45") != nil)
    }

    /// The pool keeps as many readers as it is told to: threads reading at once get one each,
    /// and when they read again nothing is opened. Kept fewer than the threads, every round opens
    /// the difference again (and parses the schema each time), which is why the server keeps one
    /// per thread that may read (`SignetApplication.sqliteReaders`).
    @Test func theReaderPoolKeepsAReaderPerConcurrentReadAndOpensNoMore() throws {
        let threads = 6
        let kept = try SQLiteStorage.temporary(maxIdleReaders: threads)
        for _ in 0..<3 { try Self.read(kept, atOnce: threads) }
        #expect(kept.readerConnectionsOpened == threads)
        let short = try SQLiteStorage.temporary(maxIdleReaders: 2)
        for _ in 0..<3 { try Self.read(short, atOnce: threads) }
        #expect(short.readerConnectionsOpened == threads + 2 * (threads - 2))
    }

    /// `count` threads each run one read and stay inside it until all of them are (at most 10 s).
    static func read(_ store: SQLiteStorage, atOnce count: Int) throws {
        let inside = Atomic(0)
        let failures = Atomic(0)
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    try store.database.read { db in
                        inside.add(1, ordering: .relaxed)
                        let deadline = Date().addingTimeInterval(10)
                        while inside.load(ordering: .relaxed) < count, Date() < deadline { usleep(200) }
                        _ = try db.one("SELECT count(*) FROM users", []) { try $0.int64(0) }
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }.start()
        }
        group.wait()
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(inside.load(ordering: .relaxed) == count)
    }

    /// The pass syncs the database after its unlocked copy only when that copy moved frames
    /// (SQLite syncs the database itself only after a checkpoint that copied the whole WAL): once
    /// after writes, and not at all for a pass that finds nothing new, so an idle server makes no
    /// syncs at its four passes a second.
    @Test func checkpointPassSyncsTheDatabaseOnlyWhenItsCopyMovedFrames() throws {
        let store = try SQLiteStorage.temporary()
        try store.database.writer.withLock { try $0.execute("PRAGMA wal_autocheckpoint = 0") }
        let checkpointer = try SQLiteConnection.open(path: store.path)
        var synced: [String] = []
        func pass(after previous: Int64) -> Int64 {
            SQLiteCheckpointer.pass(checkpointer, database: store.database, after: previous, sync: { synced.append($0) })
        }
        func insert(_ range: Range<Int>) throws {
            for index in range { try store.users.insertUser(Fixture.user("u\(index)", email: "u\(index)@example.com")) }
        }
        try insert(0..<10)
        let first = pass(after: -1)
        #expect(first > 0)
        #expect(synced == [store.database.path])
        // Nothing written since: the WAL's count stands where the last pass left it, no sync.
        let idle = pass(after: first)
        #expect(idle == first)
        #expect(pass(after: idle) == first)
        #expect(synced.count == 1)
        // More commits than the first time, into a WAL that started over: the copy moves a count
        // other than the last one, and the database is synced once more.
        try insert(10..<40)
        let busy = pass(after: idle)
        #expect(busy > 0 && busy != first)
        #expect(synced.count == 2)
        #expect(try store.users.user(id: "u39") != nil)
    }

    /// Every statement that finds grants by their user goes through `grants_user`, which indexes
    /// the first 11 characters of the user id (migration 21): a plain `user_id = …` would not use
    /// it and would read every grant. (An organization's member's families may go through the
    /// partial `grants_organization` instead, as selective.)
    @Test func statementsFindingGrantsByUserUseTheIndex() throws {
        let store = try SQLiteStorage.temporary()
        let connection = try SQLiteConnection.open(path: store.path)
        let statements = [
            SQLRefreshTokenStore.activeRefreshByUser, SQLRefreshTokenStore.revokeByUser,
            SQLRefreshTokenStore.revokeByUserAndOrganization,
        ] + SQLUserStore.deleteWithUser.filter { $0.contains("FROM grants ") }
        #expect(statements.count == 4)
        for sql in statements {
            let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, []) { try $0.text(3) }.joined(separator: "; ")
            let indexes = sql.contains("organization_id") ? ["grants_user", "grants_organization"] : ["grants_user"]
            #expect(indexes.contains { plan.contains("INDEX \($0) ") }, "\(sql) -> \(plan)")
        }
    }

    /// A bearer token's check is one statement that finds the grant by its unique `grant_id` and
    /// the user by its key: neither table is scanned.
    @Test func theBearerChecksStatementFindsTheGrantAndTheUserByTheirKeys() throws {
        let store = try SQLiteStorage.temporary()
        let connection = try SQLiteConnection.open(path: store.path)
        let plan = try connection.query("EXPLAIN QUERY PLAN " + SQLUserStore.byIDIfGrantActive, []) { try $0.text(3) }
        #expect(!plan.contains { $0.hasPrefix("SCAN users") || $0.hasPrefix("SCAN grants") }, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH grants") } && plan.contains { $0.hasPrefix("SEARCH users") }, "\(plan)")
    }

    /// A rotation's locked read, with or without the user's row, finds every row by a key: the
    /// token by its family's key and hash (or, from before migration 19, the legacy index), the
    /// grant, its profile and the user by theirs; no table is scanned.
    @Test func theRotationsReadsFindEveryRowByAKey() throws {
        let store = try SQLiteStorage.temporary()
        let connection = try SQLiteConnection.open(path: store.path)
        for located in [true, false] {
            for withUser in [true, false] {
                let sql = SQLRefreshTokenStore.rotationRead(located: located, withUser: withUser)
                let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, []) { try $0.text(3) }
                #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
                for table in ["t", "g", "p", withUser ? "u" : "users"] {
                    #expect(plan.contains { $0.hasPrefix("SEARCH \(table) ") }, "\(table): \(plan)")
                }
            }
        }
    }

    @Test func reopeningKeepsData() throws {
        try withDirectory { directory in
            let path = directory + "/db.sqlite3"
            do {
                let store = try SQLiteStorage(path: path)
                try store.users.insertUser(Fixture.user("u1", email: "ada@example.com"))
                try store.clients.upsertClient(Fixture.client("app"))
                try store.refreshTokens.createGrant(Fixture.grant("g"))
                try store.refreshTokens.insertRefreshToken(Fixture.token("rt", grant: "g"))
                try store.codes.insertCode(Fixture.code("c"))
            }
            let reopened = try SQLiteStorage(path: path)
            #expect(try reopened.migrate() == [])
            #expect(try reopened.users.user(id: "u1") == Fixture.user("u1", email: "ada@example.com"))
            #expect(try reopened.clients.client(id: "app") == Fixture.client("app"))
            #expect(try reopened.refreshTokens.refreshToken(hash: hash("rt"), grantID: "g") == Fixture.token("rt", grant: "g"))
            guard case .consumed = try reopened.codes.consumeCode(codeHash: hash("c"), now: t0) else {
                Issue.record("code should survive a reopen")
                return
            }
        }
    }

    @Test func migrationTwoKeepsExistingGrantsAndClientsWithNoResources() throws {
        try withDirectory { directory in
            let path = directory + "/db.sqlite3"
            // A database as version 1 left it, with a grant and a client in it.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let connection = try SQLiteConnection.open(path: path)
            try connection.execute(connection.dialect.render(SQLMigrations.all[0].template))
            try connection.execute("""
                CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL);
                INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0);
                INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, auth_time, payload)
                VALUES ('g-old', 'app', 'user-1', 'openid', 0, 9000000000000000, 0, '{}');
                INSERT INTO clients (id, name, is_public, first_party, redirect_uris, post_logout_redirect_uris,
                    allowed_scopes, grant_types, token_endpoint_auth_method, id_token_algorithm, allow_headless,
                    created_at, updated_at, extra)
                VALUES ('old-app', 'Old', 1, 0, '[]', '[]', '["openid"]', '["client_credentials"]', 'none', 'RS256', 0, 0, 0, '{}');
                """)
            let store = try SQLiteStorage(path: path, migrate: false)
            #expect(try store.migrate() == Array(2...SQLMigrations.latest))
            #expect(try store.refreshTokens.grant(id: "g-old")?.resources == [])
            #expect(try store.clients.client(id: "old-app")?.allowedResources == [])
        }
    }

    /// A database as version 2 left it opens unchanged and migration 3 moves each grant's `amr`
    /// out of its JSON payload into the typed column.
    @Test func migrationThreeFillsTheGrantsAMRFromThePayload() throws {
        try withDirectory { directory in
            let path = directory + "/db.sqlite3"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let connection = try SQLiteConnection.open(path: path)
            for migration in SQLMigrations.all.prefix(2) { try connection.execute(connection.dialect.render(migration.template)) }
            try connection.execute("""
                CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL);
                INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0), (2, 0);
                INSERT INTO grants (grant_id, client_id, user_id, scope, created_at, absolute_expires_at, auth_time, payload)
                VALUES ('g-pwd', 'app', 'user-1', 'openid', 0, 9000000000000000, 0, '{"amr":["pwd","mfa"]}'),
                       ('g-none', 'app', 'user-1', 'openid', 0, 9000000000000000, 0, '{}');
                """)
            let store = try SQLiteStorage(path: path, migrate: false)
            #expect(try store.currentVersion() == 2)
            #expect(try store.migrate() == Array(3...SQLMigrations.latest))
            #expect(try store.refreshTokens.grant(id: "g-pwd")?.amr == ["pwd", "mfa"])
            #expect(try store.refreshTokens.grant(id: "g-none")?.amr == [])
        }
    }

    /// A database as migration 16 left it, with refresh tokens in it: migration 17 keeps every
    /// token's scope but stores it only where it differs from its grant's, the tokens rotate as
    /// before, and they still go with their grant.
    @Test func migrationSeventeenStoresATokensScopeOnlyWhereItDiffersFromItsGrants() throws {
        try withDirectory { directory in
            let (store, connection) = try migrated(from: 16, in: directory, writtenBy: TokenScopeMigration.writeVersion16)
            try TokenScopeMigration.expectScopesKept(store.refreshTokens)
            #expect(try connection.query(TokenScopeMigration.storedScopesQuery, []) { $0.optionalText(0) } == TokenScopeMigration.storedScopes)
            #expect(try connection.query("PRAGMA foreign_key_check", []) { _ in () }.isEmpty)
            _ = try connection.run("DELETE FROM grants WHERE grant_id = 'g-1'")
            #expect(try connection.one("SELECT COUNT(*) FROM refresh_tokens", []) { try $0.int64(0) } == 0)
        }
    }

    /// A database as migration 17 left it, with grant families of each kind: migration 18 gives
    /// each grant an integer key that its tokens reference and empties the payloads; everything
    /// reads back, rotates, revokes and purges as before, and tokens still go with their grant.
    @Test func migrationEighteenKeysTokensToTheirGrantByInteger() throws {
        try withDirectory { directory in
            let (store, connection) = try migrated(from: 17, in: directory, writtenBy: GrantKeyMigration.writeVersion17)
            #expect(try connection.query(GrantKeyMigration.storedTokensQuery, []) { [try $0.text(0), $0.optionalText(1)] }
                    == GrantKeyMigration.storedTokens)
            try GrantKeyMigration.expectReadBack(store.refreshTokens)
            try GrantKeyMigration.expectFamiliesWork(store)
            #expect(try connection.query(GrantKeyMigration.storedProfilesQuery, []) { [try $0.text(0), try $0.text(1), try $0.text(2)] }
                    == GrantKeyMigration.storedProfiles)
            #expect(try connection.query("PRAGMA foreign_key_check", []) { _ in () }.isEmpty)
            #expect(try connection.query("PRAGMA integrity_check", []) { try $0.text(0) } == ["ok"])
            let count = "SELECT COUNT(*) FROM refresh_tokens"
            #expect(try connection.one(count, []) { try $0.int64(0) } == GrantKeyMigration.tokensLeft)
            _ = try connection.run("DELETE FROM grants WHERE grant_id = 'g-live'")
            #expect(try connection.one(count, []) { try $0.int64(0) } == GrantKeyMigration.tokensLeft - GrantKeyMigration.liveFamilyTokens)
        }
    }

    /// A database as migration 18 left it, with tokens issued before migration 19 (which name no
    /// family): migration 19 keys tokens under their grant; the old tokens are found by their hash
    /// alone, rotate, and their successors are new rows under the same family; the grant index is
    /// gone (the primary key serves it), the partial index of the old rows is there.
    @Test func migrationNineteenKeysTokensUnderTheirGrantAndKeepsOldTokensWorking() throws {
        try withDirectory { directory in
            let (store, connection) = try migrated(from: 18, in: directory, writtenBy: TokenFamilyMigration.writeVersion18)
            try TokenFamilyMigration.expectOldTokensWork(store.refreshTokens)
            #expect(try connection.query(TokenFamilyMigration.legacyQuery, []) { try $0.optionalInt64(0) } == TokenFamilyMigration.legacyMarks)
            let indexes = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'refresh_tokens' ORDER BY name"
            #expect(try connection.query(indexes, []) { try $0.text(0) } == ["refresh_tokens_legacy"])
            #expect(try connection.query("PRAGMA foreign_key_check", []) { _ in () }.isEmpty)
            #expect(try connection.query("PRAGMA integrity_check", []) { try $0.text(0) } == ["ok"])
            _ = try connection.run("DELETE FROM grants WHERE grant_id = 'g-old'")
            #expect(try connection.one("SELECT COUNT(*) FROM refresh_tokens", []) { try $0.int64(0) } == 1)
        }
    }

    /// A database as migration 19 left it: migration 20 moves each grant's client, scope,
    /// resources and `amr` into a profile that families share, drops `payload`, keeps every index
    /// (none more on `grants`); everything reads back, tokens of both shapes rotate, and tokens
    /// still go with their grant.
    @Test func migrationTwentySharesGrantProfilesAndKeepsTokensRotating() throws {
        try withDirectory { directory in
            let (store, connection) = try migrated(from: 19, in: directory, writtenBy: GrantProfileMigration.writeVersion19)
            func profiles() throws -> [[String]] {
                try connection.query(GrantProfileMigration.profilesQuery, []) { row in try (0..<4).map { try row.text($0) } }
            }
            #expect(try profiles() == (try GrantProfileMigration.profiles))
            #expect(try connection.query(GrantProfileMigration.referencesQuery, []) { [try $0.text(0), String(try $0.int64(1))] }
                    == GrantProfileMigration.references)
            #expect(try connection.query(GrantProfileMigration.legacyQuery, []) { try $0.text(0) } == GrantProfileMigration.legacyTokens)
            let columns = "SELECT name FROM pragma_table_info('grants') ORDER BY cid"
            #expect(try connection.query(columns, []) { try $0.text(0) } == [
                "id", "created_at", "absolute_expires_at", "auth_time", "profile_ref", "revoked_at", "grant_id", "user_id",
                "revoke_reason", "session_id", "organization_id",
            ])
            let indexes = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('grants', 'refresh_tokens') ORDER BY name"
            #expect(try connection.query(indexes, []) { try $0.text(0) } == [
                "grants_expires", "grants_organization", "grants_revoked", "grants_session", "grants_user", "refresh_tokens_legacy",
                "sqlite_autoindex_grants_1",
            ])
            try GrantProfileMigration.expectFamiliesWork(store.refreshTokens)
            #expect(try profiles() == (try GrantProfileMigration.profilesAfter))
            #expect(try connection.query("PRAGMA foreign_key_check", []) { _ in () }.isEmpty)
            #expect(try connection.query("PRAGMA integrity_check", []) { try $0.text(0) } == ["ok"])
            _ = try connection.run("DELETE FROM grants WHERE grant_id = 'g-a'")
            #expect(try connection.one("SELECT COUNT(*) FROM refresh_tokens", []) { try $0.int64(0) } == 3)
        }
    }

    @Test func refusesSchemaNewerThanBuild() throws {
        try withDirectory { directory in
            let path = directory + "/db.sqlite3"
            _ = try SQLiteStorage(path: path)
            // Pretend a newer build migrated this file.
            let connection = try SQLiteConnection.open(path: path)
            try connection.run("INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)", [SQLMigrations.latest + 1])
            #expect(throws: StoreError.self) { try SQLiteStorage(path: path) }
        }
    }

    @Test func unusablePathIsABackendError() throws {
        try withDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let file = directory + "/plain-file"
            _ = FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x78, count: 4_096))
            do {
                _ = try SQLiteStorage(path: file + "/db.sqlite3")
                Issue.record("expected an error")
            } catch let error as StoreError {
                guard case .backend = error else {
                    Issue.record("expected .backend, got \(error)")
                    return
                }
            }
            // A file that is not a database.
            do {
                _ = try SQLiteStorage(path: file)
                Issue.record("expected an error")
            } catch let error as StoreError {
                guard case .backend(let message) = error else {
                    Issue.record("expected .backend, got \(error)")
                    return
                }
                #expect(message.contains("not a database"))
            }
        }
    }

    /// A write lock another handle holds (another process's: `signet purge`, an admin command):
    /// a writer waits for it and goes on once it is free; given a short limit, it gives up with
    /// SQLite's "database is locked" (`.unavailable`) instead of waiting on.
    @Test func aWriterWaitsForAnotherHandlesLockAndGivesUpAtItsLimit() throws {
        try withDirectory { directory in
            let store = try SQLiteStorage(path: directory + "/db.sqlite3")
            let holder = try SQLiteConnection.open(path: store.path)
            try holder.execute("BEGIN IMMEDIATE")
            let impatient = try SQLiteConnection.open(path: store.path, busyTimeoutMilliseconds: 20)
            let refusal = #expect(throws: StoreError.self) { try impatient.execute("BEGIN IMMEDIATE") }
            #expect("\(refusal.map { "\($0)" } ?? "")".contains("database is locked"))
            // Locked past the busy timeout is a retry, not a failure (503 with Retry-After).
            guard case .unavailable = refusal else { Issue.record("expected .unavailable, got \(String(describing: refusal))"); return }

            let committed = DispatchSemaphore(value: 0)
            let holderBox = ConnectionHolder(holder)
            DispatchQueue.global().async {
                Thread.sleep(forTimeInterval: 0.2)
                try? holderBox.connection.execute("COMMIT")
                committed.signal()
            }
            let patient = try SQLiteConnection.open(path: store.path)
            try patient.execute("BEGIN IMMEDIATE")   // waits for the holder's COMMIT
            try patient.execute("COMMIT")
            committed.wait()
        }
    }

    /// Hands a connection to the one other thread that uses it from then on.
    private final class ConnectionHolder: @unchecked Sendable {
        let connection: SQLiteConnection
        init(_ connection: SQLiteConnection) { self.connection = connection }
    }

    @Test func twoHandlesOnOneFileStillRedeemOnce() throws {
        try withDirectory { directory in
            let path = directory + "/db.sqlite3"
            let first = try SQLiteStorage(path: path)
            let second = try SQLiteStorage(path: path)
            let count = 100
            for index in 0..<count { try first.codes.insertCode(Fixture.code("two-\(index)")) }
            try first.refreshTokens.createGrant(Fixture.grant("g"))
            try first.refreshTokens.insertRefreshToken(Fixture.token("rt", grant: "g"))

            let wins = Mutex<[Int]>([])
            let rotations = Mutex<[RotationResult]>([])
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { thread in
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
            #expect(errors.withLock { $0 }.isEmpty)
            #expect(wins.withLock { $0 }.sorted() == Array(0..<count))
            let outcomes = rotations.withLock { $0 }
            #expect(outcomes.filter { if case .rotated = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { if case .graceRetry = $0 { true } else { false } }.count == 5)
        }
    }
}
