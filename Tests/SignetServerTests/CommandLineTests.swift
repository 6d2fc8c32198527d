import Foundation
import SignetJOSE
import SignetTesting
import Testing
@testable import SignetServer

/// The real `signet` executable, run as a subprocess: check-config, keys, migrate and serve.
/// Needs `.build/debug/signet` (`swift build`, or `swift build --build-tests` as `make test` runs).
@Suite(.endToEndLimit) struct CommandLineTests {
    // MARK: check-config

    /// Every setting of every section, and every section name: (JSON path of the section, key).
    static let everySetting: [(section: String?, key: String)] = {
        var all: [(String?, String)] = Settings.topLevel.map { (nil, $0.key) }
        let sections: [(String, SettingsGroup<SignetConfiguration>)] = [("database", Settings.database), ("http", Settings.http),
                                                    ("lifetimes", Settings.lifetimes), ("keys", Settings.keys),
                                                    ("passwords", Settings.passwords), ("maintenance", Settings.maintenance)]
        for (section, entries) in sections {
            all.append((nil, section))
            all += entries.map { (section, $0.key) }
        }
        return all
    }()

    /// The key with its second character dropped: one edit away, so a suggestion is expected.
    static func typo(_ key: String) -> String {
        var characters = Array(key)
        characters.remove(at: 1)
        return String(characters)
    }

    @Test func checkConfigReportsATypoInEachFieldInTurnWithPathAndSuggestion() async throws {
        let directory = try TemporaryDirectory(prefix: "check-config")
        defer { directory.remove() }
        // All files first, then the runs in parallel: one process per file.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, setting) in Self.everySetting.enumerated() {
                let wrong = Self.typo(setting.key)
                let json = setting.section.map { #"{"\#($0)": {"\#(wrong)": 1}}"# } ?? #"{"\#(wrong)": 1}"#
                let file = try directory.write(json, to: "typo-\(index).json")
                let path = setting.section.map { "\($0).\(wrong)" } ?? wrong
                group.addTask {
                    let result = try await SignetBinary.run(["check-config", file])
                    #expect(!result.succeeded, "accepted \(json)")
                    #expect(result.status == 78, "\(result)")
                    #expect(result.stderr.contains("\(path): unknown setting; did you mean \"\(setting.key)\"?"), "\(json)\n\(result)")
                    #expect(result.stderr.contains(file))
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func checkConfigAcceptsAValidFileAndReportsEveryMistakeOfABadOne() async throws {
        let directory = try TemporaryDirectory(prefix: "check-config")
        defer { directory.remove() }
        let valid = try directory.write("""
            {"issuer": "https://id.example.com", "listen": ["0.0.0.0:8443"], "master_key": "env:SIGNET_MASTER_KEY",
             "http": {"threads": 4}, "lifetimes": {"access_token": 600}, "keys": {"access_token_algorithm": "EdDSA"}}
            """, to: "valid.json")
        let ok = try await SignetBinary.run(["check-config", valid])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.contains("valid"))
        #expect(ok.stdout.contains("https://id.example.com"))

        let bad = try directory.write(#"{"isuer": "x", "http": {"threads": "four"}, "lifetimes": {"access_token": 5}}"#, to: "bad.json")
        let result = try await SignetBinary.run(["check-config", bad])
        #expect(result.status == 78)
        #expect(result.stderr.contains("3 mistakes"), "\(result)")
        #expect(result.stderr.contains("http.threads: must be a whole number"))
        #expect(result.stderr.contains("lifetimes.access_token: must be between 30 and 86400, not 5"))

        let proxies = try directory.write(#"{"http": {"trusted_proxies": ["10.0.0.0/8", "proxy.example"]}}"#, to: "proxies.json")
        let refused = try await SignetBinary.run(["check-config", proxies])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains(#"http.trusted_proxies[1]: "proxy.example" is not an IPv4 or IPv6 address or CIDR range"#), "\(refused)")

        let missing = try await SignetBinary.run(["check-config", directory.appending("nope.json")])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("cannot read"))
    }

    @Test func unknownCommandsAndOptionsAreUsageErrors() async throws {
        let command = try await SignetBinary.run(["serv"])
        #expect(command.status == 64)
        #expect(command.stderr.contains("unknown command"))
        let option = try await SignetBinary.run(["migrate", "--dta", "/tmp/x"])
        #expect(option.status == 64)
        #expect(option.stderr.contains("unknown option --dta"))
    }

    // MARK: keys

    /// The rows of `signet keys list`: kid, algorithm, status.
    static func listKeys(_ data: String) async throws -> [(kid: String, algorithm: String, status: String)] {
        let result = try await SignetBinary.run(["keys", "list", "--data", data])
        try #require(result.succeeded, "\(result)")
        return result.stdout.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            return columns.count >= 3 ? (columns[0], columns[1], columns[2]) : nil
        }
    }

    @Test func keysListRotateAndRetire() async throws {
        let directory = try TemporaryDirectory(prefix: "keys")
        defer { directory.remove() }
        let data = directory.appending("data")

        let initial = try await Self.listKeys(data)
        #expect(initial.count == 2)
        #expect(Set(initial.map(\.algorithm)) == ["RS256", "ES256"])
        #expect(initial.allSatisfy { $0.status == "active" })

        let rotate = try await SignetBinary.run(["keys", "rotate", "--data", data, "--algorithm", "ES256"])
        #expect(rotate.succeeded, "\(rotate)")
        #expect(rotate.stdout.contains("rotated ES256"))
        let afterRotate = try await Self.listKeys(data)
        #expect(afterRotate.count == 3)
        let next = try #require(afterRotate.first { $0.status == "next" })
        #expect(next.algorithm == "ES256")
        #expect(rotate.stdout.contains(next.kid))
        #expect(afterRotate.filter { $0.status == "active" }.count == 2)   // the old ES256 key signs until activation

        let rsa = try #require(afterRotate.first { $0.algorithm == "RS256" })
        let retire = try await SignetBinary.run(["keys", "retire", rsa.kid, "--data", data])
        #expect(retire.succeeded, "\(retire)")
        #expect(retire.stdout.contains("retired \(rsa.kid)"))
        #expect(retire.stdout.contains("created"))   // it was the only RS256 key
        let afterRetire = try await Self.listKeys(data)
        #expect(afterRetire.first { $0.kid == rsa.kid }?.status == "retired")
        #expect(afterRetire.contains { $0.algorithm == "RS256" && $0.status == "active" })

        let unknown = try await SignetBinary.run(["keys", "retire", "no-such-kid", "--data", data])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no key has id"))
        let badAlgorithm = try await SignetBinary.run(["keys", "rotate", "--data", data, "--algorithm", "HS256"])
        #expect(badAlgorithm.status == 64)
    }

    // MARK: migrate

    @Test func migrateAppliesOnceThenReportsUpToDate() async throws {
        let directory = try TemporaryDirectory(prefix: "migrate")
        defer { directory.remove() }
        let data = directory.appending("data")
        let first = try await SignetBinary.run(["migrate", "--data", data])
        #expect(first.succeeded, "\(first)")
        #expect(first.stdout.contains("applied migrations"))
        let second = try await SignetBinary.run(["migrate", "--data", data])
        #expect(second.succeeded, "\(second)")
        #expect(second.stdout.contains("up to date"))
    }

    // MARK: serve

    @Test(arguments: [SIGTERM, SIGINT])
    func serveAnswersOnThePrintedPortAndStopsCleanlyOnSignal(signal: Int32) async throws {
        let server = try await TestServer.launchBinary()
        #expect(server.issuer == server.baseURL.absoluteString)
        let client = HTTPTestClient()
        let discovery = try await client.get(server.url(Routes.openIDConfiguration))
        #expect(discovery.status == 200)
        #expect(try discovery.json()["issuer"] == .string(server.issuer))
        #expect(try await client.get(server.url(Routes.health)).status == 200)

        let (result, forced) = await server.stop(signal: signal)
        #expect(!forced, "signet serve ignored signal \(signal)")
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("shutting down"))
        #expect(!result.stderr.contains("error"), "\(result)")
    }

    /// A key rotated by the CLI while `signet serve` runs shows up in the served JWKS without a
    /// restart (the server re-reads keys every 5 s).
    @Test func serveSeesKeysRotatedByTheCLI() async throws {
        let directory = try TemporaryDirectory(prefix: "serve-rotate")
        defer { directory.remove() }
        let data = directory.appending("data")
        let server = try await TestServer.launchBinary(dataDirectory: data)
        let client = HTTPTestClient()
        let rotate = try await SignetBinary.run(["keys", "rotate", "--data", data, "--algorithm", "ES256"])
        try #require(rotate.succeeded, "\(rotate)")
        let next = try #require(try await Self.listKeys(data).first { $0.status == "next" })
        var published = false
        for _ in 0..<60 where !published {
            let keys = try await client.get(server.url(Routes.jwks)).json()["keys"]?.arrayValue ?? []
            published = keys.contains { $0["kid"] == .string(next.kid) }
            if !published { try await Task.sleep(nanoseconds: 250_000_000) }
        }
        #expect(published, "the rotated key never appeared in the JWKS")
        let (result, _) = await server.stop()
        #expect(result.succeeded, "\(result)")
    }

    @Test func serveRefusesABadConfigurationFile() async throws {
        let directory = try TemporaryDirectory(prefix: "serve-bad")
        defer { directory.remove() }
        let file = try directory.write(#"{"lifetimes": {"acces_token": 60}}"#, to: "signet.json")
        let result = try await SignetBinary.run(["serve", "--config", file, "--listen", "127.0.0.1:0"], timeoutSeconds: 30)
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("lifetimes.acces_token"))
    }
}
