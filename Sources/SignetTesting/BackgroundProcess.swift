import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process that keeps running while a test talks to it (a helper server), with its
/// output collected. Stop it with `stop(signal:)`; if the object goes away first, it is killed.
public final class BackgroundProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: Int32
    private let launched: Subprocess.Launched
    private let output: OutputCollector
    private let errors: OutputCollector

    /// Starts `executable` (an absolute path, or a name looked up on PATH) with `arguments`; its
    /// standard input gets `stdin` (a few bytes: they must fit in the pipe) and is then closed.
    ///
    /// - Parameter environment: variables added to (or replacing) the test process's environment.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:], stdin: [UInt8] = []) throws {
        launched = try Subprocess.launch(executable, arguments, environment: environment, currentDirectory: nil)
        if !stdin.isEmpty { try? launched.stdin.write(contentsOf: Data(stdin)) }
        try? launched.stdin.close()
        output = OutputCollector(descriptor: launched.stdout)
        errors = OutputCollector(descriptor: launched.stderr)
        processIdentifier = launched.process.processIdentifier
    }

    /// What it printed on standard output so far.
    public var stdout: String { output.text }
    /// What it printed on standard error so far.
    public var stderr: String { errors.text }
    /// Whether the process is still running.
    public var isRunning: Bool { launched.process.isRunning }

    /// Sends `signal` (SIGTERM by default), waits up to `timeoutSeconds` for the process to end,
    /// then kills it with SIGKILL. Returns how it ended.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeoutSeconds: Double = 10) async -> SubprocessResult {
        await launched.process.stop(signal: signal, timeoutSeconds: timeoutSeconds)
        return await SubprocessResult.collect(launched.process, output: output, errors: errors)
    }

    /// Kills the process (SIGKILL) and blocks until it has ended (at most 30 s).
    public func kill() {
        launched.process.send(SIGKILL)
        launched.process.waitUntilExit(seconds: 30)
    }

    deinit {
        launched.process.send(SIGKILL)
    }
}
