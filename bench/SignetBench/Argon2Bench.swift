import Foundation
import SignetCrypto

/// Argon2id hashes per second with `threads` threads hashing at once (libsodium: one lane per
/// hash), at the server's configured cost: the ceiling for password sign-ins on this machine.
struct Argon2Bench {
    let parameters: Argon2idParameters
    let threads: Int
    let seconds: Double

    struct Rate {
        var hashes: Int
        var seconds: Double
        var perSecond: Double { seconds > 0 ? Double(hashes) / seconds : 0 }
        /// Wall time per hash on one thread.
        var milliseconds: Double
        /// CPU time (user + system, all threads) per hash.
        var cpuMilliseconds: Double
    }

    /// Every thread hashes until the deadline; hashes finished by then are counted over the time
    /// the last one took to finish.
    func run() throws -> Rate {
        _ = try Argon2id.hash(password: "warm-up password", parameters: parameters)
        let counts = Locked<[Int]>([])
        let failures = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let cpuStart = ProcessCPU.selfSeconds()
        let start = monotonicNanoseconds()
        let deadline = start + UInt64(seconds * 1e9)
        let ends = Locked<[UInt64]>([])
        for index in 0..<threads {
            let thread = Thread { [parameters] in
                var count = 0
                while monotonicNanoseconds() < deadline {
                    do {
                        _ = try Argon2id.hash(password: "correct horse battery staple \(index)", parameters: parameters)
                        count += 1
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                        break
                    }
                }
                let end = monotonicNanoseconds()
                counts.withLock { $0.append(count) }
                ends.withLock { $0.append(end) }
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<threads { done.wait() }
        if let failure = failures.withLock({ $0.first }) { throw BenchUsageError("Argon2id failed: \(failure)") }
        let hashes = counts.withLock { $0.reduce(0, +) }
        let elapsed = Double((ends.withLock { $0.max() } ?? start) - start) / 1e9
        let cpu = ProcessCPU.selfSeconds() - cpuStart
        return Rate(hashes: hashes, seconds: elapsed, milliseconds: hashes > 0 ? elapsed * 1000 * Double(threads) / Double(hashes) : 0,
                    cpuMilliseconds: hashes > 0 ? cpu * 1000 / Double(hashes) : 0)
    }
}
