import Foundation
import SignetTesting
import Testing

/// The black-box probe in scripts/probe/conformance.py, run against the real `signet serve --demo`
/// binary with users and clients created through the CLI, as a new user would.
@Suite(.endToEndLimit) struct ConformanceProbeTests {
    @Test func probePassesAgainstTheDemoServer() async throws {
        let data = try TemporaryDirectory(prefix: "signet-probe")
        defer { data.remove() }
        let server = try await TestServer.launchBinary(arguments: ["--demo"], dataDirectory: data.path)
        let script = PackagePaths.packageRoot.appendingPathComponent("scripts/probe/conformance.py").path
        let result = try await Subprocess.run(PackagePaths.python, [script, server.issuer, data.path, try PackagePaths.signetBinary()],
                                              timeoutSeconds: 120)
        _ = await server.stop()
        #expect(result.status == 0, "probe output:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("checks passed"))
        #expect(!result.stdout.contains("FAIL "))
    }
}
