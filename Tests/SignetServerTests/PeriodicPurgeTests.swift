import Foundation
import SignetCore
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Expired rows are deleted: by the running server's background purge (maintenance.purge_interval)
/// and by `signet purge`, each keeping rows for maintenance.purge_retention past their expiry.
@Suite(.endToEndLimit) struct PeriodicPurgeTests {
    /// A temporary folder (the caller removes it), its `data` folder, and the default configuration
    /// pointing at that data folder.
    static func dataFolder(prefix: String) throws -> (TemporaryDirectory, String, SignetConfiguration) {
        let directory = try TemporaryDirectory(prefix: prefix)
        let data = directory.appending("data")
        var configuration = SignetConfiguration.defaults
        configuration.dataDirectory = data
        return (directory, data, configuration)
    }

    /// Polls `condition` every 0.1 s for at most 10 s; true once it held.
    static func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<100 {
            if try condition() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try condition()
    }

    @Test func theRunningServerDeletesRowsPastExpiryPlusRetentionAndKeepsYoungerOnes() async throws {
        let env = try Interactive { configuration in
            configuration.maintenance.purgeInterval = 1
            configuration.maintenance.purgeRetention = 100
            configuration.lifetimes.authorizationRequest = 60
            configuration.lifetimes.authorizationCode = 30
            configuration.lifetimes.sessionIdle = 60
            configuration.lifetimes.sessionAbsolute = 60
        }
        defer { env.stop() }
        let server = env.server
        let storage = server.environment.storage
        let tokens = server.application.authorizationServer.tokens
        let start = server.clock.now

        // A full sign-in: a session (ends at start + 60) and a code (expires at start + 30).
        let browser = FormBrowser()
        let redirect = try await env.signIn(browser, pkce: .generate())
        let code = try #require(try redirect.query()["code"])
        let session = try #require(Interactive.sessionCookie(browser)).value
        #expect(try storage.sessions.session(idHash: tokens.hash(session), now: start) != nil)
        // A pending authorization request that nobody signs in to (expires at start + 60).
        let old = try await pendingRequest(env)
        #expect(try storage.authorizationRequests.pendingAuthorization(idHash: tokens.hash(old), now: start) != nil)

        // 100 s later, another one (expires at start + 160).
        server.clock.advance(by: 100)
        let young = try await pendingRequest(env)
        let youngSeen = server.clock.now

        // At start + 170 the cutoff is start + 70: the first rows are past expiry + retention, the
        // young request (expired 10 s ago) is not.
        server.clock.advance(by: 70)
        let purged = try await Self.eventually {
            try storage.authorizationRequests.pendingAuthorization(idHash: tokens.hash(old), now: start) == nil
        }
        #expect(purged, "the expired authorization request was still stored after 10 s")
        #expect(try storage.sessions.session(idHash: tokens.hash(session), now: start) == nil)
        // Expired but kept, it would answer `.expired`.
        guard case .notFound = try storage.codes.consumeCode(codeHash: tokens.hash(code), now: server.clock.now) else {
            Issue.record("the expired code is still stored")
            return
        }
        // The clock stands still, so every later purge has the same cutoff.
        #expect(try storage.authorizationRequests.pendingAuthorization(idHash: tokens.hash(young), now: youngSeen) != nil)
    }

    /// GET /authorize without a session: a pending request, whose handle is in the redirect to the sign-in page.
    func pendingRequest(_ env: Interactive) async throws -> String {
        let response = try await HTTPTestClient().get(env.authorizeURL(pkce: .generate()))
        #expect(response.status == 303, "\(response)")
        let location = try #require(response.redirect)
        #expect(location.location.hasPrefix(Routes.signIn), "\(location)")
        return try #require(try location.query()["request"])
    }

    @Test func purgeCommandDeletesWithTheConfiguredRetentionAndPrintsTheCount() async throws {
        let (directory, data, configuration) = try Self.dataFolder(prefix: "purge")
        defer { directory.remove() }
        let tenMinutesAgo = Date().addingTimeInterval(-600)
        do {
            let storage = try ConfiguredStorage.open(configuration, migrate: true).storage
            _ = try storage.throttle.hit(key: "purge-test:old", windowSeconds: 60, now: tenMinutesAgo)
            _ = try storage.throttle.hit(key: "purge-test:old", windowSeconds: 60, now: tenMinutesAgo)
            _ = try storage.throttle.hit(key: "purge-test:new", windowSeconds: 60, now: Date())
        }

        // The default retention (a day) keeps hits from ten minutes ago.
        let kept = try await SignetBinary.run(["purge", "--data", data])
        #expect(kept.status == 0, "\(kept)")
        #expect(kept.stdout.contains("purged 0 expired row(s)"), "\(kept)")

        // A 60-second retention, from a configuration file, does not.
        let file = try directory.write(#"{"data_dir": "data", "maintenance": {"purge_retention": 60}}"#, to: "signet.json")
        let removed = try await SignetBinary.run(["purge", "--config", file])
        #expect(removed.status == 0, "\(removed)")
        #expect(removed.stdout.contains("purged 2 expired row(s)"), "\(removed)")

        let storage = try ConfiguredStorage.open(configuration, migrate: false).storage
        #expect(try storage.throttle.hitCount(key: "purge-test:old", windowSeconds: 3600, now: Date()) == 0)
        #expect(try storage.throttle.hitCount(key: "purge-test:new", windowSeconds: 3600, now: Date()) == 1)
    }

    /// `--rest N` sets the pace of this one purge: a value outside 0…100, or no whole number, is a
    /// usage error (exit 64) that deletes nothing; `--rest 0` deletes every expired row, in as many
    /// 200-row batches as it takes, whatever the configuration's `purge_rest` says.
    @Test func purgeRestIsCheckedAndItsBatchesDeleteEveryExpiredRow() async throws {
        let (directory, data, configuration) = try Self.dataFolder(prefix: "purge-rest")
        defer { directory.remove() }
        let expiredRows = 450
        let twoDaysAgo = Date().addingTimeInterval(-2 * 86_400)
        do {
            let storage = try ConfiguredStorage.open(configuration, migrate: true).storage
            for index in 0..<expiredRows {
                _ = try storage.throttle.hit(key: "purge-rest:old:\(index)", windowSeconds: 60, now: twoDaysAgo)
            }
            _ = try storage.throttle.hit(key: "purge-rest:new", windowSeconds: 60, now: Date())
        }
        func oldRowsLeft() throws -> Int {
            let storage = try ConfiguredStorage.open(configuration, migrate: false).storage
            return try (0..<expiredRows).reduce(0) { count, index in
                count + (try storage.throttle.hitCount(key: "purge-rest:old:\(index)", windowSeconds: 7 * 86_400, now: Date()))
            }
        }

        for bad in [["--rest", "101"], ["--rest", "-1"], ["--rest", "two"], ["--rest", "1.5"], ["--rest"]] {
            let refused = try await SignetBinary.run(["purge", "--data", data] + bad)
            #expect(refused.status == 64, "\(bad): \(refused)")
            #expect(refused.stderr.contains("--rest"), "\(bad): \(refused)")
            #expect(!refused.stdout.contains("purged"), "\(bad): \(refused)")
        }
        #expect(try oldRowsLeft() == expiredRows)

        // A configuration that would rest 100 times as long as each batch took; --rest 0 overrides it.
        let file = try directory.write(#"{"data_dir": "data", "maintenance": {"purge_rest": 100}}"#, to: "signet.json")
        let purged = try await SignetBinary.run(["purge", "--config", file, "--rest", "0"])
        #expect(purged.status == 0, "\(purged)")
        #expect(purged.stdout.contains("purged \(expiredRows) expired row(s)"), "\(purged)")
        #expect(try oldRowsLeft() == 0)
        let storage = try ConfiguredStorage.open(configuration, migrate: false).storage
        #expect(try storage.throttle.hitCount(key: "purge-rest:new", windowSeconds: 3600, now: Date()) == 1)
    }

    @Test func checkConfigRefusesANegativePurgeInterval() async throws {
        let directory = try TemporaryDirectory(prefix: "purge-config")
        defer { directory.remove() }
        let file = try directory.write(#"{"maintenance": {"purge_interval": -5}}"#, to: "bad.json")
        let result = try await SignetBinary.run(["check-config", file])
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("maintenance.purge_interval: must be between 0 and 604800, not -5"), "\(result)")

        let serve = try await SignetBinary.run(["purge", "--config", file])
        #expect(serve.status == 78, "\(serve)")
        #expect(serve.stderr.contains("maintenance.purge_interval"), "\(serve)")
    }
}
