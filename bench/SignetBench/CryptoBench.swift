import Foundation
import SignetCrypto

/// Measures sign and verify throughput for each JWS algorithm on one thread, over a 190-byte JWS
/// signing input, through the public `PrivateKey.sign` / `PublicKey.verify` API (each operation
/// uses a fresh `EVP_MD_CTX`). Compare with `openssl speed ecdsap256 rsa2048 ed25519`.
///
/// - Parameter seconds: how long to run each of the eight measurements.
/// - Returns: one entry per measurement, e.g. `("ES256 sign", 51234.5)`.
func runCryptoBench(seconds: Double) -> [(name: String, opsPerSecond: Double)] {
    // A realistic compact-JWS signing input: base64url(header) "." base64url(claims), 190 bytes.
    let header = "eyJhbGciOiJFUzI1NiIsImtpZCI6IjIwMjYtMTEtMjkiLCJ0eXAiOiJhdCtqd3QifQ"
    var input = Array((header + ".").utf8)
    let filler = Array("eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwic3ViIjoidXNlci0xMjMiLCJhdWQiOiJhcGkiLCJleHAiOjE3MDAwMDAwMDB9".utf8)
    while input.count < 190 { input.append(filler[(input.count - header.count - 1) % filler.count]) }

    var results: [(name: String, opsPerSecond: Double)] = []
    let plans: [(SignatureAlgorithm, KeyType)] = [(.es256, .p256), (.rs256, .rsa(bits: 2048)),
                                                  (.ps256, .rsa(bits: 2048)), (.edDSA, .ed25519)]
    for (algorithm, type) in plans {
        guard let key = try? PrivateKey.generate(type),
              let signature = try? key.sign(input, algorithm: algorithm) else {
            results.append(("\(algorithm.rawValue) sign (key generation failed)", 0))
            continue
        }
        let publicKey = key.publicKey
        let signRate = measure(seconds: seconds) {
            (try? key.sign(input, algorithm: algorithm)) != nil
        }
        results.append(("\(algorithm.rawValue) sign", signRate))
        let verifyRate = measure(seconds: seconds) {
            publicKey.verify(signature: signature, message: input, algorithm: algorithm)
        }
        results.append(("\(algorithm.rawValue) verify", verifyRate))
    }
    return results
}

/// Runs `operation` repeatedly for about `seconds` and returns successful operations per second.
private func measure(seconds: Double, _ operation: () -> Bool) -> Double {
    // Warm up caches and lazy initialisation outside the timed window.
    for _ in 0..<20 { _ = operation() }
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .milliseconds(Int64(seconds * 1000))
    var count = 0
    while clock.now < deadline {
        for _ in 0..<16 where operation() { count += 1 }
    }
    let elapsed = start.duration(to: clock.now)
    let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return secondsElapsed > 0 ? Double(count) / secondsElapsed : 0
}
