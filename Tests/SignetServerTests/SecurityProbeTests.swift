import Foundation
import SignetTesting
import Testing

/// The black-box probe in scripts/probe/security.py: the defects found by the security review,
/// each tried again from outside, exactly as it was reproduced, against the real
/// `signet serve --demo` binary behind a (simulated) trusted proxy on 127.0.0.1.
@Suite(.endToEndLimit) struct SecurityProbeTests {
    @Test func theReviewsDefectsStayClosedFromOutside() async throws {
        let data = try TemporaryDirectory(prefix: "signet-security-probe")
        defer { data.remove() }
        let config = try data.write(#"{"http": {"trusted_proxies": ["127.0.0.1"]}}"#, to: "signet.json")
        let server = try await TestServer.launchBinary(arguments: ["--demo", "--config", config], dataDirectory: data.path)
        let script = PackagePaths.packageRoot.appendingPathComponent("scripts/probe/security.py").path
        let result = try await Subprocess.run(PackagePaths.python,
                                              [script, server.issuer, data.path, try PackagePaths.signetBinary(),
                                               String(server.processIdentifier)],
                                              timeoutSeconds: 240)
        _ = await server.stop()
        #expect(result.status == 0, "probe output:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(" checks passed, 0 failed"), "probe output:\n\(result.stdout)")
        #expect(!result.stdout.contains("FAIL "))
    }
}
