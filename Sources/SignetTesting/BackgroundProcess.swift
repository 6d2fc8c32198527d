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
    /// standard input is closed at once.
    ///
    /// - Parameter environment: variables added to (or replacing) the test process's environment.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        launched = try Subprocess.launch(executable, arguments, environment: environment, currentDirectory: nil)
        try? launched.stdin.close()
        output = OutputCollector(launched.stdout)
        errors = OutputCollector(launched.stderr)
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
        if launched.process.isRunning { kill(processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while launched.process.isRunning {
            if Date() > deadline {
                kill(processIdentifier, SIGKILL)
                while launched.process.isRunning { try? await Task.sleep(nanoseconds: 5_000_000) }
                break
            }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return await SubprocessResult.collect(launched.process, output: output, errors: errors)
    }

    deinit {
        if launched.process.isRunning { kill(processIdentifier, SIGKILL) }
    }
}
