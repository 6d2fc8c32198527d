import Foundation
import SignetCrypto
import SignetMockProvider
import SignetServer
#if canImport(Glibc)
import Glibc
#endif

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
    static let all: [BenchCommand] = [crypto, startup, load, slowfed, mock, argon2, port, seed, resample, purge, startupOn, enumeration]

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
        load --port P --scenario refresh-id|refresh-noid|client-credentials|userinfo|signin|password|healthz
               [--connections 16] [--seconds 5] [--warmup 0.5] [--runs 2] [--client bench-app]
               [--redirect-uri http://127.0.0.1/callback] [--scope "openid profile email offline_access"]
               [--email E --password-file F] [--confidential-client ID --secret-file F]
               [--server-pid PID] [--results FILE --key NAME] [--seeded-tokens FILE] [--server signet|floor]
               closed-loop load, exact p50/p99; --server floor: bench/floor's reference server (refresh-id, refresh-noid, userinfo, healthz)
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["port", "scenario", "connections", "seconds", "warmup", "runs", "client", "redirect-uri", "scope",
                               "email", "password-file", "confidential-client", "secret-file", "server-pid", "results", "key",
                               "seeded-tokens", "server"])
        guard let portText = options.string("port"), let port = Int(portText),
              let scenarioName = options.string("scenario"), let scenario = LoadScenario(rawValue: scenarioName) else {
            throw BenchUsageError("load needs --port P and --scenario (\(LoadScenario.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var settings = try loadSettings(options, port: port, scenario: scenario)
        switch options.string("server") ?? "signet" {
        case "signet": break
        case "floor":
            guard [.refreshIDToken, .refreshNoIDToken, .userinfo, .healthz].contains(scenario) else {
                throw BenchUsageError("--server floor serves refresh-id, refresh-noid, userinfo and healthz only")
            }
            settings.reference = true
        default: throw BenchUsageError("--server is signet or floor")
        }
        let connections = try options.int("connections", default: 16)
        let runs = try options.int("runs", default: 2)
        let seconds = try options.double("seconds", default: 5)
        let warmup = options.string("warmup").flatMap(Double.init) ?? 0.5
        let serverPID = options.string("server-pid").flatMap { Int32($0) }
        let workers = try options.string("seeded-tokens").map { file in
            try seededWorkers(settings, connections: connections, file: file)
        } ?? readyWorkers(settings, connections: connections)

        var measured: [LoadGenerator.Run] = []
        for run in 1...runs {
            let result = LoadGenerator(workers: workers, warmupSeconds: warmup, seconds: seconds, serverPID: serverPID).run()
            measured.append(result)
            print("run \(run)  " + result.line)
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
        results.record(key + ".operations", Double(measured.reduce(0) { $0 + $1.operations }))   // all runs, warm-up excluded
        if !cpus.isEmpty { results.record(key + ".server_cpu_us", median(cpus)) }
        results.record(key + ".generator_cpu_us", median(measured.map(\.generatorMicrosecondsPerOperation)))
        try results.write()
        return errors == 0 && aborted == 0 ? 0 : 1
    }

    /// The load settings from the options every OAuth measurement shares.
    static func loadSettings(_ options: BenchOptions, port: Int, scenario: LoadScenario) throws -> LoadSettings {
        func secret(_ name: String) throws -> String? {
            guard let path = options.string(name) else { return nil }
            return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return LoadSettings(
            port: port, scenario: scenario, publicClientID: options.string("client") ?? "bench-app",
            redirectURI: options.string("redirect-uri") ?? "http://127.0.0.1/callback",
            scope: options.string("scope") ?? "openid profile email offline_access",
            email: options.string("email") ?? "bench@example.com", password: try secret("password-file") ?? "",
            confidentialClientID: options.string("confidential-client"), confidentialSecret: try secret("secret-file"))
    }

    /// Not measured: one password sign-in for the SSO session (when the scenario needs one), then
    /// each connection's own refresh token / access token / credentials.
    static func readyWorkers(_ settings: LoadSettings, connections: Int) throws -> [LoadWorker] {
        var session: String?
        if settings.scenario.needsSession && !settings.reference {
            guard !settings.password.isEmpty else {
                throw BenchUsageError("\(settings.scenario.rawValue) needs --email and --password-file")
            }
            let setup = HTTPConnection(port: settings.port)
            let client = OAuthClient(clientID: settings.publicClientID, redirectURI: settings.redirectURI)
            session = try client.passwordSignIn(setup, email: settings.email, password: settings.password, scope: settings.scope).session
        }
        let workers = (0..<connections).map { _ in LoadWorker(settings: settings, session: session) }
        for worker in workers { try worker.setUp() }
        return workers
    }

    /// `slowfed --port P --connection ID ...`: refresh rotations alone and next to federated
    /// sign-ins that wait on a slow upstream (see `SlowUpstreamBench`).
    static let slowfed = BenchCommand(name: "slowfed", summary: """
        slowfed --port P --connection ID [--browsers 32] [--upstream-delay 3] [--connections 16] [--seconds 5]
               [--warmup 0.5] [--runs 2] [--client bench-app] [--redirect-uri http://127.0.0.1/callback]
               [--email E --password-file F] [--server-pid PID] [--results FILE]
               refresh rotations (scope=offline_access) alone and with federated sign-ins on a slow upstream in flight
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["port", "connection", "browsers", "upstream-delay", "connections", "seconds", "warmup", "runs",
                               "client", "redirect-uri", "email", "password-file", "confidential-client", "secret-file", "server-pid",
                               "results"])
        guard let portText = options.string("port"), let port = Int(portText), let connectionID = options.string("connection") else {
            throw BenchUsageError("slowfed needs --port P and --connection ID")
        }
        let settings = try loadSettings(options, port: port, scenario: .refreshNoIDToken)
        let connections = try options.int("connections", default: 16)
        let browsers = try options.int("browsers", default: 32)
        let runs = try options.int("runs", default: 2)
        let bench = SlowUpstreamBench(
            workers: try readyWorkers(settings, connections: connections), settings: settings, connectionID: connectionID,
            browsers: browsers, upstreamDelay: try options.double("upstream-delay", default: 3),
            warmupSeconds: options.string("warmup").flatMap(Double.init) ?? 0.5, seconds: try options.double("seconds", default: 5),
            serverPID: options.string("server-pid").flatMap { Int32($0) })
        let warm = try bench.warmUp()
        print("warm-up: one federated sign-in through \(connectionID) in " + String(format: "%.1f", warm)
              + " s (discovery, token endpoint and JWKS each wait on the upstream; the user is created)")
        print("refresh: \(connections) connections, one chain each, scope=offline_access; busy: \(browsers) browsers, "
              + "each running federated sign-ins back to back (starts spread over " + String(format: "%g", bench.upstreamDelay) + " s)")
        var pairs: [SlowUpstreamBench.Pair] = []
        for run in 1...runs {
            let pair = bench.measure(run: run)
            pairs.append(pair)
            let window = pair.federation
            print("run \(run)  alone " + pair.alone.line)
            print("run \(run)  busy  " + pair.busy.line)
            var line = "        federated sign-ins: \(window.completed) completed in the window ("
                + String(format: "%.1f", window.perSecond) + "/s), callbacks in flight min \(window.inFlightMinimum) mean "
                + String(format: "%.1f", window.inFlightMean) + ", callback p50 " + String(format: "%.0f", median(window.callbackMilliseconds))
                + " ms max " + String(format: "%.0f", window.callbackMilliseconds.last ?? 0) + " ms, failures \(pair.federationFailures)"
            if let threads = pair.serverThreads { line += ", server process threads \(threads)" }
            print(line)
            if let cpu = pair.signInsOnlyCPU {
                print("        sign-ins alone (1 s before the busy window): server CPU " + String(format: "%.0f", cpu * 1000)
                      + " ms per second for \(pair.signInsOnlyCompleted) sign-ins completed with ~\(browsers) in flight")
            }
            for message in pair.federationMessages { print("       !! federated sign-in: \(message)") }
            for failure in pair.alone.failures + pair.busy.failures { print("       !! refresh: \(failure)") }
            print("        busy/alone " + String(format: "%.2f", pair.alone.perSecond > 0 ? pair.busy.perSecond / pair.alone.perSecond : 0))
        }
        let alone = median(pairs.map(\.alone.perSecond))
        let busy = median(pairs.map(\.busy.perSecond))
        let ratio = alone > 0 ? busy / alone : 0
        let errors = pairs.reduce(0) { $0 + $1.alone.errors + $1.busy.errors }
        let aborted = bench.workers.filter { $0.aborted != nil }.count
        let failures = pairs.reduce(0) { $0 + $1.federationFailures }
        let completed = pairs.reduce(0) { $0 + $1.federation.completed }
        print("median alone " + String(format: "%.1f", alone) + " ops/s, busy " + String(format: "%.1f", busy) + " ops/s: "
              + String(format: "%.2f", ratio) + "x; \(completed) federated sign-ins completed in the busy windows, \(failures) failed")
        if aborted > 0 { print("       !! \(aborted) of \(bench.workers.count) chains aborted") }
        var results = BenchResults(path: options.string("results"))
        for (name, side) in [("alone", pairs.map(\.alone)), ("busy", pairs.map(\.busy))] {
            results.record("slowfed.\(name).rate", median(side.map(\.perSecond)))
            results.record("slowfed.\(name).p50_ms", median(side.map { $0.quantileMilliseconds(0.5) }))
            results.record("slowfed.\(name).p99_ms", median(side.map { $0.quantileMilliseconds(0.99) }))
            let cpus = side.compactMap(\.serverMicrosecondsPerOperation)
            if !cpus.isEmpty { results.record("slowfed.\(name).server_cpu_us", median(cpus)) }
        }
        results.record("slowfed.ratio", ratio)
        results.record("slowfed.errors", Double(errors))
        results.record("slowfed.aborted", Double(aborted))
        results.record("slowfed.connections", Double(connections))
        results.record("slowfed.browsers", Double(browsers))
        results.record("slowfed.fed.completed", Double(completed))
        results.record("slowfed.fed.rate", median(pairs.map(\.federation.perSecond)))
        results.record("slowfed.fed.failures", Double(failures))
        results.record("slowfed.fed.inflight_min", Double(pairs.map(\.federation.inFlightMinimum).min() ?? 0))
        results.record("slowfed.fed.inflight_mean", median(pairs.map(\.federation.inFlightMean)))
        results.record("slowfed.fed.callback_p50_ms", median(pairs.flatMap(\.federation.callbackMilliseconds)))
        results.record("slowfed.fed.callback_max_ms", pairs.flatMap(\.federation.callbackMilliseconds).max() ?? 0)
        let quietCPU = pairs.compactMap(\.signInsOnlyCPU)
        if !quietCPU.isEmpty { results.record("slowfed.fed.server_cpu_ms_per_s", median(quietCPU) * 1000) }
        let threads = pairs.compactMap(\.serverThreads)
        if !threads.isEmpty { results.record("slowfed.server_threads", Double(threads.max() ?? 0)) }
        try results.write()
        return errors == 0 && aborted == 0 && failures == 0 && completed > 0 ? 0 : 1
    }

    /// `mock --secret-file F [--delay 3] [--client-id signet-bench]`: a mock Google until SIGTERM.
    static let mock = BenchCommand(name: "mock", summary: """
        mock --secret-file F [--delay 3] [--client-id signet-bench]
               a mock Google on 127.0.0.1 (auto-approves one user) whose discovery, token, JWKS and userinfo
               answers wait --delay seconds; prints "issuer URL", runs until SIGTERM or SIGINT
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["secret-file", "delay", "client-id"])
        guard let path = options.string("secret-file") else { throw BenchUsageError("mock needs --secret-file F") }
        let secret = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // Wait for the signals in this thread; every thread started after this inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let provider = try MockProvider(flavor: .google, clientID: options.string("client-id") ?? "signet-bench", clientSecret: secret,
                                        user: MockUser(subject: "bench-google-user", email: "google-user@example.com", name: "Gail Google"))
        var behaviour = MockProviderBehaviour()
        behaviour.delaySeconds = try options.double("delay", default: 3)
        provider.behaviour = behaviour
        print("issuer \(provider.issuer)")
        fflush(nil)
        var received: Int32 = 0
        sigwait(&signals, &received)
        provider.stop()
        return 0
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

    /// `enumeration --port P --known-file F [--requests 100] [--batch 10] [--forms forgot,email,signup]
    /// [--server-pid PID] [--results FILE]`: known vs unknown addresses at the address forms.
    static let enumeration = BenchCommand(name: "enumeration", summary: """
        enumeration --port P --known-file F [--requests 100] [--batch 10] [--forms forgot,email,signup]
               [--client bench-app] [--redirect-uri http://127.0.0.1/callback] [--server-pid PID] [--results FILE]
               known vs unknown addresses: p50/p90/p99 of each form's POST, the difference, server CPU per post
        """) { arguments in
        let options = try BenchOptions(arguments)
        try options.allowOnly(["port", "known-file", "requests", "batch", "forms", "client", "redirect-uri", "server-pid", "results"])
        guard let portText = options.string("port"), let port = Int(portText), let knownFile = options.string("known-file") else {
            throw BenchUsageError("enumeration needs --port P and --known-file F (one address with an account per line)")
        }
        let known = try String(contentsOfFile: knownFile, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let requests = try options.int("requests", default: 100)
        guard known.count >= requests else { throw BenchUsageError("--known-file has \(known.count) addresses; --requests \(requests) needs as many") }
        var forms: [EnumerationBench.Form] = EnumerationBench.Form.allCases
        if let list = options.string("forms") {
            forms = try list.split(separator: ",").map { name in
                guard let form = EnumerationBench.Form(rawValue: String(name)) else { throw BenchUsageError("unknown form \(name) (forgot, email, signup)") }
                return form
            }
        }
        let bench = EnumerationBench(port: port, serverPID: options.string("server-pid").flatMap { Int32($0) },
                                     client: OAuthClient(clientID: options.string("client") ?? "bench-app",
                                                         redirectURI: options.string("redirect-uri") ?? "http://127.0.0.1/callback"),
                                     known: known, requests: requests, batch: try options.int("batch", default: 10))
        var results = BenchResults(path: options.string("results"))
        let runID = OAuthClient.randomToken(6).lowercased()
        print("\(requests) posts per kind and form, sequential on one keep-alive connection, batches of \(bench.batch) alternating; wall time of the POST alone")
        print(pad("form", 8) + pad("address", 10) + lpad("p50 ms", 9) + lpad("p90 ms", 9) + lpad("p99 ms", 9) + lpad("CPU/post", 11))
        for form in forms {
            let samples: [EnumerationBench.Kind: EnumerationBench.Sample]
            do { samples = try bench.run(form, runID: runID) } catch { throw BenchUsageError("\(form.rawValue): \(error)") }
            for kind in EnumerationBench.Kind.allCases {
                guard let sample = samples[kind] else { continue }
                print(pad(form.rawValue, 8) + pad(kind.rawValue, 10) + lpad(String(format: "%.2f", sample.quantile(0.5)), 9)
                      + lpad(String(format: "%.2f", sample.quantile(0.9)), 9) + lpad(String(format: "%.2f", sample.quantile(0.99)), 9)
                      + lpad(String(format: "%.0f us", sample.cpuMicroseconds), 11))
                let key = "enumeration.\(form.rawValue).\(kind.rawValue)"
                results.record(key + ".p50_ms", sample.quantile(0.5))
                results.record(key + ".p90_ms", sample.quantile(0.9))
                results.record(key + ".p99_ms", sample.quantile(0.99))
                results.record(key + ".cpu_us", sample.cpuMicroseconds)
            }
            let difference = EnumerationBench.medianDifference(samples[.known]?.milliseconds ?? [], samples[.unknown]?.milliseconds ?? [])
            let cpuDifference = (samples[.unknown]?.cpuMicroseconds ?? 0) - (samples[.known]?.cpuMicroseconds ?? 0)
            print(pad(form.rawValue, 8) + "unknown - known: median " + String(format: "%+.3f ms", difference.difference)
                  + " (95 % interval " + String(format: "%+.3f … %+.3f", difference.low, difference.high) + "), CPU/post "
                  + String(format: "%+.0f us", cpuDifference))
            results.record("enumeration.\(form.rawValue).diff_ms", difference.difference)
            results.record("enumeration.\(form.rawValue).diff_low_ms", difference.low)
            results.record("enumeration.\(form.rawValue).diff_high_ms", difference.high)
            results.record("enumeration.\(form.rawValue).cpu_diff_us", cpuDifference)
        }
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
