import CSignetSpawn
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
        let launched = try launch(executable, arguments, environment: environment, currentDirectory: currentDirectory)
        let output = OutputCollector(descriptor: launched.stdout)
        let errors = OutputCollector(descriptor: launched.stderr)
        let input = launched.stdin
        await Blocking.run {
            if let stdin { try? input.write(contentsOf: Data(stdin)) }
            try? input.close()
        }
        if await !launched.process.waitForExit(seconds: timeoutSeconds) {
            launched.process.send(SIGKILL)
            _ = await output.waitUntilFinished(seconds: 2)
            throw TestingError("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeoutSeconds) s; "
                + "stdout so far: \(output.text) stderr so far: \(errors.text)")
        }
        return await SubprocessResult.collect(launched.process, output: output, errors: errors)
    }

    /// `run` for callers that cannot await (a start-up check, a static property): blocks the
    /// calling thread.
    public static func runBlocking(_ executable: String, _ arguments: [String] = [], stdin: [UInt8]? = nil,
                                   environment: [String: String] = [:], timeoutSeconds: Double = 60) throws -> SubprocessResult {
        let launched = try launch(executable, arguments, environment: environment, currentDirectory: nil)
        let output = OutputCollector(descriptor: launched.stdout)
        let errors = OutputCollector(descriptor: launched.stderr)
        if let stdin { try? launched.stdin.write(contentsOf: Data(stdin)) }
        try? launched.stdin.close()
        if !launched.process.waitUntilExit(seconds: timeoutSeconds) {
            launched.process.send(SIGKILL)
            throw TestingError("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeoutSeconds) s")
        }
        _ = output.waitUntilFinishedBlocking(seconds: 5)
        _ = errors.waitUntilFinishedBlocking(seconds: 5)
        return SubprocessResult(status: launched.process.terminationStatus, wasSignaled: launched.process.wasSignaled,
                                stdoutBytes: output.bytes, stderrBytes: errors.bytes)
    }

    /// Set once: writes to a closed pipe or socket fail with EPIPE instead of killing the test
    /// process (children start with the default disposition again).
    static let sigpipeIgnored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// A started child and the parent's ends of its three pipes: `stdin` to write to, `stdout`
    /// and `stderr` descriptors to hand to an `OutputCollector` (which closes them).
    struct Launched: Sendable {
        let process: ChildProcess
        let stdin: FileHandle
        let stdout: Int32
        let stderr: Int32
    }

    /// Starts a child with piped standard streams and nothing else of this process's descriptors.
    static func launch(_ executable: String, _ arguments: [String], environment: [String: String],
                       currentDirectory: String?) throws -> Launched {
        _ = sigpipeIgnored
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        var opened: [Int32] { input + output + errors }
        for index in 0..<3 {
            let rc = index == 0 ? signet_cloexec_pipe(&input) : index == 1 ? signet_cloexec_pipe(&output) : signet_cloexec_pipe(&errors)
            guard rc == 0 else {
                for fd in opened where fd >= 0 { close(fd) }
                throw TestingError("cannot make a pipe for \(executable) (errno \(rc))")
            }
        }
        let variables = environment.isEmpty ? ProcessInfo.processInfo.environment
            : ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let rc = argv.withUnsafeBufferPointer { args in
            envp.withUnsafeBufferPointer { env in
                signet_spawn(executable, args.baseAddress, env.baseAddress, currentDirectory, input[0], output[1], errors[1], &pid)
            }
        }
        // The child's ends belong to the child now (or to nobody, if it did not start).
        close(input[0]); close(output[1]); close(errors[1])
        guard rc == 0 else {
            close(input[1]); close(output[0]); close(errors[0])
            throw TestingError("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        return Launched(process: ChildProcess(processIdentifier: pid),
                        stdin: FileHandle(fileDescriptor: input[1], closeOnDealloc: true),
                        stdout: output[0], stderr: errors[0])
    }
}
