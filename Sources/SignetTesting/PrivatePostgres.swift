import Foundation

/// A PostgreSQL cluster of one test's own (scripts/postgres-test-server.sh, Debian's server
/// binaries): on a Unix socket only, so the test may stop and restart it, an outage no other test
/// sees. Needs what `RealPart.postgres` needs.
public final class PrivatePostgres: Sendable {
    /// The cluster's folder (its socket, data and log).
    public let directory: String
    /// The libpq connection string of its `postgres` database.
    public let conninfo: String

    /// Creates and starts the cluster.
    public init() async throws {
        // A short path: the socket's path must fit in sun_path (108 bytes).
        directory = "/tmp/pgp-" + UUID().uuidString.prefix(8).lowercased()
        let started = try await Self.script("start", directory)
        conninfo = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server, keeping its data: every connection breaks, none can be made.
    public func pause() async throws { _ = try await Self.script("pause", directory) }

    /// Starts the paused server again.
    public func resume() async throws { _ = try await Self.script("resume", directory) }

    /// Stops the server and deletes its folder (blocking, for a `defer`).
    public func remove() {
        _ = try? Subprocess.runBlocking("/bin/bash", [Self.scriptPath, "stop", directory], timeoutSeconds: 120)
    }

    private static var scriptPath: String { PackagePaths.packageRoot.appendingPathComponent("scripts/postgres-test-server.sh").path }

    private static func script(_ command: String, _ directory: String) async throws -> SubprocessResult {
        let result = try await Subprocess.run("/bin/bash", [scriptPath, command, directory], timeoutSeconds: 120)
        guard result.succeeded else { throw TestingError("postgres-test-server.sh \(command): \(result)") }
        return result
    }
}
