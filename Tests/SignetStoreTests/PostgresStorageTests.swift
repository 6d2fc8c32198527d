import Dispatch
import Foundation
@testable import SignetPostgres
import SignetStore
import Synchronization
import Testing

/// What only the PostgreSQL store has: migrations under an advisory lock, a bounded connection
/// pool, SQLSTATE mapping, several stores (nodes) on one database. Runs when
/// `SIGNET_TEST_POSTGRES_URL` names a server (scripts/run-tests.sh starts one).
@Suite("PostgresStorage", .enabled(if: Backend.postgresURL != nil, "SIGNET_TEST_POSTGRES_URL is not set"))
struct PostgresStorageTests {
    /// A fresh, empty database, dropped after `body`; `body` gets its name.
    func withDatabase(_ body: (String) throws -> Void) throws {
        let admin = try #require(Backend.postgresURL)
        let name = "signet_unit_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection.connect(conninfo: admin).execute("CREATE DATABASE \(name)")
        defer { try? PostgresConnection.connect(conninfo: admin).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        try body(name)
    }

    /// A store on `database` (a separate pool, as another node would have).
    func store(_ database: String, migrate: Bool = true, maxConnections: Int = 8) throws -> PostgresStorage {
        try PostgresStorage(conninfo: try #require(Backend.postgresURL), database: database, migrate: migrate,
                            maxConnections: maxConnections, dropOnDeinit: nil)
    }

    @Test func migrationsApplyOnceAndAreIdempotent() throws {
        try withDatabase { database in
            let store = try store(database, migrate: false)
            #expect(try store.currentVersion() == 0)
            #expect(try store.migrate() == [1])
            #expect(try store.migrate() == [])
            #expect(try store.currentVersion() == PostgresMigrations.latest)
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
            #expect(applied.withLock { $0 }.filter { !$0.isEmpty } == [[1]])
            #expect(try nodes[0].currentVersion() == 1)
        }
    }

    @Test func refusesSchemaNewerThanBuild() throws {
        try withDatabase { database in
            let first = try store(database)
            try first.withConnection { db in
                try db.run("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)", [PostgresMigrations.latest + 1])
            }
            #expect(throws: StoreError.self) { try self.store(database) }
        }
    }

    @Test func constraintViolationsMapToStoreErrorsWithoutValues() throws {
        try withDatabase { database in
            let store = try store(database)
            try store.insertUser(Fixture.user("u1", email: "ada@example.com"))
            #expect(throws: StoreError.duplicate) { try store.insertUser(Fixture.user("u2", email: "ADA@example.com")) }
            // A token whose grant does not exist (foreign key).
            #expect(throws: StoreError.notFound) { try store.insertRefreshToken(Fixture.token("orphan", grant: "none")) }
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
            #expect(try store.user(email: "ada@example.com")?.id == "u1")
        }
    }

    @Test func unreachableServerIsABackendError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-pg-\(UUID().uuidString)").path
        do {
            _ = try PostgresStorage(conninfo: "host=\(missing) port=5432 user=postgres dbname=postgres connect_timeout=2")
            Issue.record("expected an error")
        } catch let error as StoreError {
            guard case .backend(let message) = error else {
                Issue.record("expected .backend, got \(error)")
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
            for index in 0..<count { try first.insertCode(Fixture.code("two-\(index)")) }
            try first.createGrant(Fixture.grant("g"))
            try first.insertRefreshToken(Fixture.token("rt", grant: "g"))

            let wins = Mutex<[Int]>([])
            let rotations = Mutex<[RotationResult]>([])
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                let store = thread.isMultiple(of: 2) ? first : second
                do {
                    for index in 0..<count {
                        if case .consumed = try store.consumeCode(codeHash: hash("two-\(index)"), now: t0) {
                            wins.withLock { $0.append(index) }
                        }
                    }
                    let result = try store.rotateRefreshToken(
                        tokenHash: hash("rt"), clientID: "app", successorHash: hash("rt-next"),
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
}
