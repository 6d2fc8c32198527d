import Foundation

/// Refresh-token rotations with and without federated sign-ins waiting on a slow upstream at the
/// same time (issue 4: a slow provider must not slow down `/token` for everyone else).
///
/// Each run measures the same refresh chains twice with `LoadGenerator`: alone, and while a
/// `FederatedSignInStream` keeps `browsers` federated sign-ins in flight, each of them holding a
/// Signet callback that waits on the provider's token endpoint. The order alternates between
/// runs (alone first, then busy first) so a drift in machine load does not favour one side.
struct SlowUpstreamBench {
    let workers: [LoadWorker]
    let settings: LoadSettings
    let connectionID: String
    let browsers: Int
    /// The upstream's delay: the browsers' starts are spread over it.
    let upstreamDelay: Double
    let warmupSeconds: Double
    let seconds: Double
    let serverPID: Int32?

    /// One run: the two measurements and the federated sign-ins during the busy one.
    struct Pair {
        var alone: LoadGenerator.Run
        var busy: LoadGenerator.Run
        var federation: FederatedSignInStream.Window
        var federationFailures: Int
        var federationMessages: [String]
        /// Threads of the server process while the sign-ins were in flight.
        var serverThreads: Int?
        /// Server CPU (seconds per second) over one second with only the sign-ins running, and
        /// the sign-ins completed in that second: what waiting on the upstream costs the server.
        var signInsOnlyCPU: Double?
        var signInsOnlyCompleted: Int
    }

    /// One federated sign-in before measuring (not measured): Signet fetches the provider's
    /// discovery document and keys (each delayed too) and creates the federated user, so the
    /// measured sign-ins are returning users whose only upstream wait is the token endpoint.
    func warmUp() throws(HTTPClientError) -> Double {
        let stream = FederatedSignInStream(settings: settings, connectionID: connectionID, browsers: 1, stagger: 0)
        let connection = HTTPConnection(port: settings.port, timeoutSeconds: 60)
        let begin = monotonicNanoseconds()
        _ = try stream.signInOnce(connection)
        return Double(monotonicNanoseconds() - begin) / 1e9
    }

    /// Run number `run` (1-based).
    func measure(run: Int) -> Pair {
        let generator = LoadGenerator(workers: workers, warmupSeconds: warmupSeconds, seconds: seconds, serverPID: serverPID)
        var alone: LoadGenerator.Run?
        if run % 2 == 1 { alone = generator.run() }
        let stream = FederatedSignInStream(settings: settings, connectionID: connectionID, browsers: browsers, stagger: upstreamDelay)
        stream.start()
        // Every browser has started once its stagger slot has passed; by then the first ones are
        // on their second sign-in and the stream is steady.
        sleepUntil(monotonicNanoseconds() + UInt64((upstreamDelay + 0.25) * 1e9))
        let threads = Self.threadCount(pid: serverPID)
        let quietStart = monotonicNanoseconds()
        let cpuStart = ProcessCPU.seconds(pid: serverPID)
        sleepUntil(quietStart + 1_000_000_000)
        let cpuEnd = ProcessCPU.seconds(pid: serverPID)
        let quietWindow = stream.window(from: quietStart, to: monotonicNanoseconds())
        let signInsOnlyCPU: Double? = if let cpuStart, let cpuEnd { cpuEnd - cpuStart } else { nil }
        let busy = generator.run()
        stream.stop()
        if alone == nil { alone = generator.run() }
        let failures = stream.failures
        return Pair(alone: alone ?? busy, busy: busy, federation: stream.window(from: busy.windowStart, to: busy.windowEnd),
                    federationFailures: failures.count, federationMessages: failures.messages, serverThreads: threads,
                    signInsOnlyCPU: signInsOnlyCPU, signInsOnlyCompleted: quietWindow.completed)
    }

    /// `Threads:` of `/proc/PID/status`.
    static func threadCount(pid: Int32?) -> Int? {
        guard let pid, let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
