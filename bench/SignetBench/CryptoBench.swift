import Foundation
import SignetCrypto

/// Measures sign and verify throughput for each JWS algorithm on one thread, over a 190-byte JWS
/// signing input, through the public `PrivateKey.sign` / `PublicKey.verify` API (each operation
/// uses a fresh `EVP_MD_CTX`). Compare with `openssl speed ecdsap256 rsa2048 ed25519`.
///
/// - Parameters:
///   - seconds: how long to run each measurement (two per algorithm).
///   - algorithms: which algorithms to measure, in the order ES256, RS256, PS256, EdDSA.
/// - Returns: one entry per measurement (sign, then verify, per algorithm).
func runCryptoBench(seconds: Double, algorithms: Set<SignatureAlgorithm> = [.es256, .rs256, .ps256, .edDSA])
    -> [CryptoRate] {
    // A realistic compact-JWS signing input: base64url(header) "." base64url(claims), 190 bytes.
    let header = "eyJhbGciOiJFUzI1NiIsImtpZCI6IjIwMjYtMTEtMjkiLCJ0eXAiOiJhdCtqd3QifQ"
    var input = Array((header + ".").utf8)
    let filler = Array("eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwic3ViIjoidXNlci0xMjMiLCJhdWQiOiJhcGkiLCJleHAiOjE3MDAwMDAwMDB9".utf8)
    while input.count < 190 { input.append(filler[(input.count - header.count - 1) % filler.count]) }

    var results: [CryptoRate] = []
    let plans: [(SignatureAlgorithm, KeyType)] = [(.es256, .p256), (.rs256, .rsa(bits: 2048)),
                                                  (.ps256, .rsa(bits: 2048)), (.edDSA, .ed25519)]
    for (algorithm, type) in plans where algorithms.contains(algorithm) {
        guard let key = try? PrivateKey.generate(type),
              let signature = try? key.sign(input, algorithm: algorithm) else {
            results.append(CryptoRate(name: "\(algorithm.rawValue) sign (key generation failed)", perCPUSecond: 0, perWallSecond: 0))
            continue
        }
        let publicKey = key.publicKey
        let signRate = measure(seconds: seconds) {
            (try? key.sign(input, algorithm: algorithm)) != nil
        }
        results.append(CryptoRate(name: "\(algorithm.rawValue) sign", perCPUSecond: signRate.perCPUSecond, perWallSecond: signRate.perWallSecond))
        let verifyRate = measure(seconds: seconds) {
            publicKey.verify(signature: signature, message: input, algorithm: algorithm)
        }
        results.append(CryptoRate(name: "\(algorithm.rawValue) verify", perCPUSecond: verifyRate.perCPUSecond, perWallSecond: verifyRate.perWallSecond))
    }
    // What every RS256/PS256/ES256 operation pays and `openssl speed` does not: hashing the input.
    let hashRate = measure(seconds: min(seconds, 1)) { Digest.sha256(input).count == 32 }
    results.append(CryptoRate(name: "SHA-256 190B", perCPUSecond: hashRate.perCPUSecond, perWallSecond: hashRate.perWallSecond))
    return results
}

/// One crypto measurement.
struct CryptoRate {
    /// E.g. "ES256 sign".
    var name: String
    /// Operations per second of this thread's CPU time: what `openssl speed` reports by default (it
    /// divides by user CPU time unless given `-elapsed`), so other load on the machine does not skew
    /// the comparison.
    var perCPUSecond: Double
    /// Operations per second of wall-clock time (`openssl speed -elapsed`).
    var perWallSecond: Double
}

/// Runs `operation` repeatedly for about `seconds` of wall-clock time and returns successful
/// operations per CPU second of this thread and per wall-clock second.
private func measure(seconds: Double, _ operation: () -> Bool) -> (perCPUSecond: Double, perWallSecond: Double) {
    // Warm up caches and lazy initialisation outside the timed window.
    for _ in 0..<20 { _ = operation() }
    let clock = ContinuousClock()
    let start = clock.now
    let cpuStart = threadCPUSeconds()
    let deadline = start + .milliseconds(Int64(seconds * 1000))
    var count = 0
    while clock.now < deadline {
        for _ in 0..<16 where operation() { count += 1 }
    }
    let cpu = threadCPUSeconds() - cpuStart
    let elapsed = start.duration(to: clock.now)
    let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (cpu > 0 ? Double(count) / cpu : 0, wall > 0 ? Double(count) / wall : 0)
}

/// CPU time (user + system; system is nil for this work) of the calling thread, in seconds.
private func threadCPUSeconds() -> Double {
    var time = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
