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
    static let all: [BenchCommand] = [crypto, startup, port]

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
