import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `signet serve` executable running as a child process (see `TestServer.launchBinary`).
/// Stop it with `stop(signal:)`; if the object goes away first, the process is killed.
public final class BinaryServer: Sendable {
    /// `http://HOST:PORT` from the "listening on" line.
    public let baseURL: URL
    /// `http://HOST:PORT` of the admin listener, from its "admin listening on" line (nil when off).
    public let adminURL: URL?
    /// The issuer the server printed.
    public let issuer: String
    /// The port it listens on.
    public let port: Int
    /// The data folder it was given.
    public let dataDirectory: String
    /// The child's process id.
    public let processIdentifier: Int32
    private let launched: Subprocess.Launched
    private let output: OutputCollector
    private let errors: OutputCollector
    private let temporary: TemporaryDirectory?

    init(baseURL: URL, adminURL: URL?, issuer: String, port: Int, dataDirectory: String, launched: Subprocess.Launched,
         output: OutputCollector, errors: OutputCollector, temporary: TemporaryDirectory?) {
        self.baseURL = baseURL
        self.adminURL = adminURL
        self.issuer = issuer
        self.port = port
        self.dataDirectory = dataDirectory
        self.processIdentifier = launched.process.processIdentifier
        self.launched = launched
        self.output = output
        self.errors = errors
        self.temporary = temporary
    }

    /// What it printed on standard output so far.
    public var stdout: String { output.text }
    /// What it printed on standard error so far.
    public var stderr: String { errors.text }
    /// Whether the process is still running.
    public var isRunning: Bool { launched.process.isRunning }

    /// `baseURL` + `path`.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path) ?? baseURL.appendingPathComponent(path)
    }

    /// Sends `signal` (SIGTERM by default), waits up to `timeoutSeconds` for the process to end,
    /// then kills it with SIGKILL. Removes the data folder if it was a temporary one. Returns how
    /// it ended; `forced` is true when SIGKILL was needed.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeoutSeconds: Double = 10) async -> (result: SubprocessResult, forced: Bool) {
        let forced = await launched.process.stop(signal: signal, timeoutSeconds: timeoutSeconds)
        _ = await output.waitUntilFinished(seconds: 5)
        _ = await errors.waitUntilFinished(seconds: 5)
        temporary?.remove()
        let result = SubprocessResult(status: launched.process.terminationStatus,
                                      wasSignaled: launched.process.wasSignaled,
                                      stdoutBytes: output.bytes, stderrBytes: errors.bytes)
        return (result, forced)
    }

    deinit {
        launched.process.send(SIGKILL)
        temporary?.remove()
    }
}
