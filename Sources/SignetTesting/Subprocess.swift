import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and collects its output: for CLI tests and interop tools.
public enum Subprocess {
    /// Runs `executable` (an absolute path, or a name looked up on PATH) with `arguments`,
    /// writes `stdin` to it (then closes it), and waits for it to end.
    ///
    /// - Parameters:
    ///   - environment: variables added to (or replacing) the test process's environment.
    ///   - currentDirectory: the child's working directory.
    ///   - timeoutSeconds: after this the child is killed (SIGKILL) and `TestingError` is thrown.
    public static func run(_ executable: String, _ arguments: [String] = [], stdin: [UInt8]? = nil,
                           environment: [String: String] = [:], currentDirectory: String? = nil,
                           timeoutSeconds: Double = 60) async throws -> SubprocessResult {
        let process = try launch(executable, arguments, environment: environment, currentDirectory: currentDirectory)
        let output = OutputCollector(process.stdout)
        let errors = OutputCollector(process.stderr)
        let input = process.stdin
        await Blocking.run {
            // A child that exits without reading must not kill the test process with SIGPIPE.
            _ = Subprocess.sigpipeIgnored
            if let stdin { try? input.write(contentsOf: Data(stdin)) }
            try? input.close()
        }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.process.isRunning {
            if Date() > deadline {
                kill(process.process.processIdentifier, SIGKILL)
                _ = await output.waitUntilFinished(seconds: 2)
                throw TestingError("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeoutSeconds) s; "
                    + "stdout so far: \(output.text) stderr so far: \(errors.text)")
            }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return await SubprocessResult.collect(process.process, output: output, errors: errors)
    }

    /// Set once: writes to a closed pipe or socket fail with EPIPE instead of killing the process.
    static let sigpipeIgnored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// A started child and the parent's ends of its three pipes.
    struct Launched: @unchecked Sendable {
        // Process is thread-safe for the calls made here (isRunning, terminationStatus, pid).
        let process: Process
        let stdin: FileHandle
        let stdout: FileHandle
        let stderr: FileHandle
    }

    /// Starts a child with piped standard streams.
    static func launch(_ executable: String, _ arguments: [String], environment: [String: String],
                       currentDirectory: String?) throws -> Launched {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw TestingError("cannot start \(executable): \(error)")
        }
        // Foundation's Process closes the child's ends of the pipes in this process after
        // spawning (checked on this toolchain: the descriptors are gone after `run()`). Closing
        // them again would close whatever descriptor reused the number — once, a server's listen
        // socket, which made libmicrohttpd abort.
        return Launched(process: process, stdin: input.fileHandleForWriting,
                        stdout: output.fileHandleForReading, stderr: errors.fileHandleForReading)
    }
}
