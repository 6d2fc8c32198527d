import Foundation
import SignetCrypto
import SignetServer

/// One SignetBench subcommand. To add a benchmark: write its measuring type in its own file, add
/// a `BenchCommand` here that prints a table and records figures, and call it from a section
/// function in `scripts/bench.sh`.
struct BenchCommand: Sendable {
    /// The word on the command line.
    let name: String
    /// One line for the usage text.
    let summary: String
    /// Runs with the options after the name; returns the exit status.
    let run: @Sendable ([String]) throws -> Int32

    /// Every subcommand, in usage order.
    static let all: [BenchCommand] = [crypto, startup, load, argon2, port]

    /// `crypto [--seconds S] [--algorithms LIST] [--results FILE]`: sign/verify per second for every JWS algorithm.
    static let crypto = BenchCommand(name: "crypto", summary: "crypto [--seconds 2] [--algorithms ES256,RS256,PS256,EdDSA] [--results FILE]   sign/verify per second, one thread") { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["seconds", "algorithms", "results"])
        let seconds = try options.double("seconds", default: 2)
        var algorithms: Set<SignatureAlgorithm> = [.es256, .rs256, .ps256, .edDSA]
        if let list = options.string("algorithms") {
            algorithms = []
            for name in list.split(separator: ",") {
                guard let algorithm = SignatureAlgorithm(rawValue: String(name)) else {
                    throw BenchUsageError("unknown algorithm \(name) (have ES256, RS256, PS256, EdDSA)")
                }
                algorithms.insert(algorithm)
            }
        }
        var results = BenchResults(path: options.string("results"))
        print("SignetCrypto, one thread, \(String(format: "%g", seconds)) s per measurement, 190-byte JWS signing input")
        print(pad("operation", 16) + lpad("ops/CPU-s", 12) + lpad("ops/wall-s", 12))
        for rate in runCryptoBench(seconds: seconds, algorithms: algorithms) {
            print(pad(rate.name, 16) + lpad(String(format: "%.1f", rate.perCPUSecond), 12)
                  + lpad(String(format: "%.1f", rate.perWallSecond), 12))
            // "ES256 sign" -> crypto.ES256.sign (per CPU second, like openssl speed) and .wall
            let key = "crypto." + rate.name.replacingOccurrences(of: " ", with: ".")
            results.record(key, rate.perCPUSecond)
            results.record(key + ".wall", rate.perWallSecond)
        }
        try results.write()
        return 0
    }

    /// `startup --signet PATH --work DIR [--runs 5] [--results FILE]`: spawn-to-discovery time.
    static let startup = BenchCommand(name: "startup", summary: "startup --signet PATH --work DIR [--runs 5] [--results FILE]   spawn to first 200 from discovery") { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["signet", "work", "runs", "results"])
        guard let signet = options.string("signet"), let work = options.string("work") else {
            throw BenchUsageError("startup needs --signet PATH and --work DIR")
        }
        let runs = try options.int("runs", default: 5)
        var results = BenchResults(path: options.string("results"))
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let bench = StartupBench(signet: signet, workDirectory: work)
        var fresh: [StartupSample] = []
        var existing: [StartupSample] = []
        // Alternate: run i starts a new data folder (first start), then starts it again (second start).
        for run in 1...runs {
            let directory = (work as NSString).appendingPathComponent("data-\(run)")
            fresh.append(try bench.measure(dataDirectory: directory))
            existing.append(try bench.measure(dataDirectory: directory))
        }
        print("signet serve --data DIR --listen 127.0.0.1:PORT; spawn -> first 200 from \(Routes.openIDConfiguration), polled every \(bench.pollIntervalMilliseconds) ms")
        print(pad("start", 30) + lpad("median ms", 10) + lpad("in server", 10) + "   runs (ms; server's own 'ready in')")
        for (label, key, samples) in [("first start (fresh data dir)", "startup.fresh_ms", fresh),
                                      ("second start (existing data)", "startup.existing_ms", existing)] {
            let times = samples.map(\.spawnToReadyMilliseconds)
            let each = samples.map { sample in
                String(format: "%.1f", sample.spawnToReadyMilliseconds)
                    + (sample.selfReportedMilliseconds.map { String(format: " (%.0f)", $0) } ?? "")
            }
            let inServer = median(samples.compactMap(\.selfReportedMilliseconds))
            print(pad(label, 30) + lpad(String(format: "%.1f", median(times)), 10) + lpad(String(format: "%.0f", inServer), 10)
                  + "   " + each.joined(separator: ", "))
            results.record(key, median(times))
            results.record(key.replacingOccurrences(of: "_ms", with: "_in_server_ms"), inServer)
        }
        let lost = (fresh + existing).reduce(0) { $0 + $1.lostTerminationSignals }
        if lost > 0 { print("!! \(lost) SIGTERM(s) were ignored by a server that had just become ready (a shutdown race in signet)") }
        results.record("startup.lost_sigterm", Double(lost))
        try results.write()
        return 0
    }

    /// `load --port P --scenario S ...`: the native load generator (see `LoadScenario`).
    static let load = BenchCommand(name: "load", summary: """
        load --port P --scenario refresh-id|refresh-noid|client-credentials|userinfo|signin|password
               [--connections 16] [--seconds 5] [--warmup 0.5] [--runs 2] [--client bench-app]
               [--redirect-uri http://127.0.0.1/callback] [--scope "openid profile email offline_access"]
               [--email E --password-file F] [--confidential-client ID --secret-file F]
               [--server-pid PID] [--results FILE --key NAME]   closed-loop load, exact p50/p99
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["port", "scenario", "connections", "seconds", "warmup", "runs", "client", "redirect-uri", "scope",
                               "email", "password-file", "confidential-client", "secret-file", "server-pid", "results", "key"])
        guard let portText = options.string("port"), let port = Int(portText),
              let scenarioName = options.string("scenario"), let scenario = LoadScenario(rawValue: scenarioName) else {
            throw BenchUsageError("load needs --port P and --scenario (\(LoadScenario.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        func secret(_ name: String) throws -> String? {
            guard let path = options.string(name) else { return nil }
            return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let settings = LoadSettings(
            port: port, scenario: scenario, publicClientID: options.string("client") ?? "bench-app",
            redirectURI: options.string("redirect-uri") ?? "http://127.0.0.1/callback",
            scope: options.string("scope") ?? "openid profile email offline_access",
            email: options.string("email") ?? "bench@example.com", password: try secret("password-file") ?? "",
            confidentialClientID: options.string("confidential-client"), confidentialSecret: try secret("secret-file"))
        let connections = try options.int("connections", default: 16)
        let runs = try options.int("runs", default: 2)
        let seconds = try options.double("seconds", default: 5)
        let warmup = options.string("warmup").flatMap(Double.init) ?? 0.5
        let serverPID = options.string("server-pid").flatMap { Int32($0) }

        // Not measured: one password sign-in for the SSO session, then each connection's own
        // refresh token / access token / credentials.
        var session: String?
        if scenario.needsSession {
            guard !settings.password.isEmpty else { throw BenchUsageError("\(scenario.rawValue) needs --email and --password-file") }
            let setup = HTTPConnection(port: port)
            let client = OAuthClient(clientID: settings.publicClientID, redirectURI: settings.redirectURI)
            session = try client.passwordSignIn(setup, email: settings.email, password: settings.password, scope: settings.scope).session
        }
        let workers = (0..<connections).map { _ in LoadWorker(settings: settings, session: session) }
        for worker in workers { try worker.setUp() }

        var measured: [LoadGenerator.Run] = []
        for run in 1...runs {
            let result = LoadGenerator(workers: workers, warmupSeconds: warmup, seconds: seconds, serverPID: serverPID).run()
            measured.append(result)
            var line = "run \(run)  " + lpad(String(format: "%.1f", result.perSecond), 9) + " ops/s"
            line += "   p50 " + lpad(String(format: "%.2f", result.quantileMilliseconds(0.5)), 6) + " ms"
            line += "   p99 " + lpad(String(format: "%.2f", result.quantileMilliseconds(0.99)), 6) + " ms"
            line += "   max " + lpad(String(format: "%.1f", result.quantileMilliseconds(1)), 6) + " ms"
            line += "   errors \(result.errors)"
            if let cpu = result.serverMicrosecondsPerOperation { line += "   server CPU " + lpad(String(format: "%.0f", cpu), 5) + " us/op" }
            line += "   load generator CPU " + lpad(String(format: "%.0f", result.generatorMicrosecondsPerOperation), 4) + " us/op"
            print(line)
            for failure in result.failures { print("       !! \(failure)") }
            if scenario.isChain && result.liveWorkers < workers.count {
                print("       !! \(workers.count - result.liveWorkers) of \(workers.count) chains aborted")
            }
        }
        let rate = median(measured.map(\.perSecond))
        let p50 = median(measured.map { $0.quantileMilliseconds(0.5) })
        let p99 = median(measured.map { $0.quantileMilliseconds(0.99) })
        let errors = measured.reduce(0) { $0 + $1.errors }
        let aborted = workers.filter { $0.aborted != nil }.count
        var line = "median " + lpad(String(format: "%.1f", rate), 9) + " ops/s   p50 " + String(format: "%.2f", p50)
            + " ms   p99 " + String(format: "%.2f", p99) + " ms   (\(connections) connections, \(scenario.requestsPerOperation) request(s) per op)"
        let cpus = measured.compactMap(\.serverMicrosecondsPerOperation)
        if !cpus.isEmpty { line += "   server CPU " + String(format: "%.0f", median(cpus)) + " us/op" }
        print(line)
        var results = BenchResults(path: options.string("results"))
        let key = "load." + (options.string("key") ?? scenario.rawValue)
        results.record(key + ".rate", rate)
        results.record(key + ".p50_ms", p50)
        results.record(key + ".p99_ms", p99)
        results.record(key + ".errors", Double(errors))
        results.record(key + ".aborted", Double(aborted))
        results.record(key + ".connections", Double(connections))
        if !cpus.isEmpty { results.record(key + ".server_cpu_us", median(cpus)) }
        results.record(key + ".generator_cpu_us", median(measured.map(\.generatorMicrosecondsPerOperation)))
        try results.write()
        return errors == 0 && aborted == 0 ? 0 : 1
    }

    /// `argon2 [--threads 2] [--seconds 3] [--runs 2] [--ops 2] [--memory-kib 65536]`: hashes per second.
    static let argon2 = BenchCommand(name: "argon2", summary: "argon2 [--threads 2] [--seconds 3] [--runs 2] [--ops 2] [--memory-kib 65536] [--results FILE]   Argon2id hashes/s") { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["threads", "seconds", "runs", "ops", "memory-kib", "results"])
        let parameters = Argon2idParameters(opsLimit: UInt64(try options.int("ops", default: 2)),
                                            memLimitBytes: try options.int("memory-kib", default: 65_536) * 1024)
        let threads = try options.int("threads", default: 2)
        let seconds = try options.double("seconds", default: 3)
        var rates: [Double] = []
        var cpus: [Double] = []
        for run in 1...(try options.int("runs", default: 2)) {
            let rate = try Argon2Bench(parameters: parameters, threads: threads, seconds: seconds).run()
            print("run \(run)  " + lpad(String(format: "%.1f", rate.perSecond), 7) + " hashes/s   \(rate.hashes) hashes in "
                  + String(format: "%.2f", rate.seconds) + " s, " + String(format: "%.1f", rate.milliseconds) + " ms each per thread, "
                  + String(format: "%.1f", rate.cpuMilliseconds) + " ms CPU each")
            rates.append(rate.perSecond)
            cpus.append(rate.cpuMilliseconds)
        }
        print("median " + String(format: "%.1f", median(rates)) + " hashes/s (Argon2id t=\(parameters.opsLimit), m=\(parameters.memLimitBytes / 1024) KiB, p=1, \(threads) threads)")
        var results = BenchResults(path: options.string("results"))
        results.record("argon2.rate", median(rates))
        results.record("argon2.cpu_ms", median(cpus))
        try results.write()
        return 0
    }

    /// `port`: prints a TCP port that is free on 127.0.0.1 right now.
    static let port = BenchCommand(name: "port", summary: "port   print a free TCP port on 127.0.0.1") { arguments in
        guard arguments.isEmpty else { throw BenchUsageError("port takes no options") }
        print(try FreePort.pick())
        return 0
    }
}

/// Left-aligns `text` in `width` columns.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

/// Right-aligns `text` in `width` columns.
func lpad(_ text: String, _ width: Int) -> String {
    text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
}
