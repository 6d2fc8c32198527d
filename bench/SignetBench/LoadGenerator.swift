import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A closed-loop load generator: `connections` threads, each with its own keep-alive connection
/// and `LoadWorker`, each sending its next operation as soon as the previous one is answered.
/// Every operation's latency is recorded, so p50 and p99 are exact (no histogram buckets).
struct LoadGenerator {
    let workers: [LoadWorker]
    /// Operations finishing in the first `warmupSeconds` of a run are not counted.
    let warmupSeconds: Double
    let seconds: Double
    /// The server process, for its CPU time per operation (nil: not measured).
    let serverPID: Int32?

    /// One measured window.
    struct Run {
        var operations: Int
        var errors: Int
        var seconds: Double
        /// The measured window on the monotonic clock (nanoseconds).
        var windowStart: UInt64
        var windowEnd: UInt64
        /// Operation latencies in nanoseconds, sorted.
        var latencies: [UInt64]
        /// The first few distinct failure messages.
        var failures: [String]
        var serverCPUSeconds: Double?
        var generatorCPUSeconds: Double
        /// Workers that still carry a live chain (or all workers, when not a chain scenario).
        var liveWorkers: Int

        var perSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }

        /// The `fraction` quantile of the latencies in milliseconds (nearest rank).
        func quantileMilliseconds(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let rank = Int((fraction * Double(latencies.count)).rounded(.up)) - 1
            return Double(latencies[min(max(rank, 0), latencies.count - 1)]) / 1e6
        }

        /// Server CPU per operation in microseconds.
        var serverMicrosecondsPerOperation: Double? {
            serverCPUSeconds.map { operations > 0 ? $0 * 1e6 / Double(operations) : 0 }
        }

        var generatorMicrosecondsPerOperation: Double {
            operations > 0 ? generatorCPUSeconds * 1e6 / Double(operations) : 0
        }

        /// `ops/s, p50, p99, max, errors, server and generator CPU per operation` on one line.
        var line: String {
            var line = lpad(String(format: "%.1f", perSecond), 9) + " ops/s"
            line += "   p50 " + lpad(String(format: "%.2f", quantileMilliseconds(0.5)), 6) + " ms"
            line += "   p99 " + lpad(String(format: "%.2f", quantileMilliseconds(0.99)), 6) + " ms"
            line += "   max " + lpad(String(format: "%.1f", quantileMilliseconds(1)), 6) + " ms"
            line += "   errors \(errors)"
            if let cpu = serverMicrosecondsPerOperation { line += "   server CPU " + lpad(String(format: "%.0f", cpu), 5) + " us/op" }
            line += "   load generator CPU " + lpad(String(format: "%.0f", generatorMicrosecondsPerOperation), 4) + " us/op"
            return line
        }
    }

    private struct ThreadResult: Sendable {
        var latencies: [UInt64] = []
        var errors = 0
        var failures: [String] = []
    }

    /// Runs every worker for `warmupSeconds + seconds` and measures the last `seconds`.
    func run() -> Run {
        let results = Locked<[ThreadResult]>([])
        let done = DispatchSemaphore(value: 0)
        let start = monotonicNanoseconds()
        let measureStart = start + UInt64(warmupSeconds * 1e9)
        let measureEnd = measureStart + UInt64(seconds * 1e9)
        let cpuBefore = ProcessCPU.seconds(pid: serverPID)
        let selfBefore = ProcessCPU.selfSeconds()
        // CPU is sampled at the window's edges by a timer thread, not by the workers.
        let cpuAtStart = Locked<(Double?, Double)>((cpuBefore, selfBefore))
        let cpuAtEnd = Locked<(Double?, Double)>((nil, 0))
        let sampler = Thread { [serverPID] in
            sleepUntil(measureStart)
            cpuAtStart.withLock { $0 = (ProcessCPU.seconds(pid: serverPID), ProcessCPU.selfSeconds()) }
            sleepUntil(measureEnd)
            cpuAtEnd.withLock { $0 = (ProcessCPU.seconds(pid: serverPID), ProcessCPU.selfSeconds()) }
            done.signal()
        }
        sampler.start()
        for worker in workers {
            let thread = Thread {
                var result = ThreadResult()
                result.latencies.reserveCapacity(Int(seconds * 20_000))
                while worker.aborted == nil {
                    let begin = monotonicNanoseconds()
                    if begin >= measureEnd { break }
                    do {
                        try worker.operate()
                        let end = monotonicNanoseconds()
                        if end >= measureStart && end < measureEnd { result.latencies.append(end - begin) }
                    } catch {
                        let end = monotonicNanoseconds()
                        if end >= measureStart && end < measureEnd || worker.aborted != nil {
                            result.errors += 1
                            if result.failures.count < 3 && !result.failures.contains("\(error)") {
                                result.failures.append("\(error)")
                            }
                        }
                        // A server that keeps failing must not turn into a busy loop.
                        usleep(1000)
                    }
                }
                results.withLock { $0.append(result) }
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0...workers.count { done.wait() }
        let all = results.withLock { $0 }
        let (serverStart, selfStart) = cpuAtStart.withLock { $0 }
        let (serverEnd, selfEnd) = cpuAtEnd.withLock { $0 }
        var failures: [String] = []
        for message in all.flatMap(\.failures) where !failures.contains(message) && failures.count < 5 { failures.append(message) }
        let serverCPU: Double? = if let serverStart, let serverEnd { serverEnd - serverStart } else { nil }
        return Run(operations: all.reduce(0) { $0 + $1.latencies.count }, errors: all.reduce(0) { $0 + $1.errors },
                   seconds: seconds, windowStart: measureStart, windowEnd: measureEnd, latencies: all.flatMap(\.latencies).sorted(), failures: failures,
                   serverCPUSeconds: serverCPU, generatorCPUSeconds: selfEnd - selfStart,
                   liveWorkers: workers.filter { $0.aborted == nil }.count)
    }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Sleeps until the monotonic clock reaches `deadline` (nanoseconds).
func sleepUntil(_ deadline: UInt64) {
    while true {
        let now = monotonicNanoseconds()
        guard now < deadline else { return }
        usleep(UInt32(min(deadline - now, 100_000_000) / 1000))
    }
}

/// CPU time (user + system) of processes, in seconds.
enum ProcessCPU {
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// CPU time of process `pid` (all its threads), from `/proc/PID/stat`; nil when unreadable.
    static func seconds(pid: Int32?) -> Double? {
        guard let pid, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ", field 3 is the state; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    /// CPU time of this process (all threads).
    static func selfSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A value behind a lock, shareable by reference between threads.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}
