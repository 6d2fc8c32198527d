import Foundation
import SignetMacros

/// How a finished subprocess ended and what it printed.
@MemberwiseInit
public struct SubprocessResult: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when `wasSignaled`.
    public let status: Int32
    /// True when the process was ended by a signal rather than by exiting.
    public let wasSignaled: Bool
    /// Standard output bytes.
    public let stdoutBytes: [UInt8]
    /// Standard error bytes.
    public let stderrBytes: [UInt8]

    /// Standard output as UTF-8 text.
    public var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
    /// True when the process exited with status 0.
    public var succeeded: Bool { !wasSignaled && status == 0 }

    /// Status and both outputs, for test failure messages.
    public var description: String {
        "\(wasSignaled ? "signal" : "exit") \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }

    /// The result of an ended `process`, once its output collectors have drained (at most 5 s
    /// each).
    static func collect(_ process: ChildProcess, output: OutputCollector, errors: OutputCollector) async -> SubprocessResult {
        _ = await output.waitUntilFinished(seconds: 5)
        _ = await errors.waitUntilFinished(seconds: 5)
        return SubprocessResult(status: process.terminationStatus, wasSignaled: process.wasSignaled,
                                stdoutBytes: output.bytes, stderrBytes: errors.bytes)
    }
}
