import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetServer

/// The start / wait / stop skeleton of the helper servers a test starts (`MailSink`,
/// `PrometheusServer`, `IndependentProvider`): one process listening on 127.0.0.1, its port, and
/// the throwaway folder it owns, if any.
struct HelperService: Sendable {
    /// The port it listens on (127.0.0.1).
    let port: Int
    /// The running process, with its output.
    let process: BackgroundProcess
    /// Removed by `stop`, or when the start fails.
    let folder: TemporaryDirectory?

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Why a start failed: the process timed out (still running) or exited, and its last output.
    struct StartFailure: Error {
        /// Whether the process was still running when the wait ended.
        let timedOut: Bool
        /// The end of its standard error.
        let stderr: String
    }

    /// Starts `launch(port)` on a free port and waits (at most `seconds`) until `readyPath` answers
    /// 200. Only a port taken between picking and binding ("address already in use") is worth
    /// another try, twice at most; any other failure is thrown as a `StartFailure`.
    static func start(readyPath: String, seconds: Double, folder: TemporaryDirectory? = nil,
                      launch: (Int) throws -> BackgroundProcess) async throws -> HelperService {
        var failure = StartFailure(timedOut: false, stderr: "")
        for _ in 0..<3 {
            let port = try FreePort.pick()
            let process = try launch(port)
            guard let ready = URL(string: "http://127.0.0.1:\(port)" + readyPath) else { throw TestingError("bad port \(port)") }
            let client = HTTPTestClient(timeoutSeconds: 5)
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline {
                if let response = try? await client.get(ready), response.status == 200 {
                    return HelperService(port: port, process: process, folder: folder)
                }
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
            failure = await stopFailed(process)
            if failure.timedOut || !failure.stderr.lowercased().contains("address already in use") { break }
        }
        folder?.remove()
        throw failure
    }

    /// Waits (at most `seconds`) for `process`, which binds a port itself, to print `READY <port>`
    /// on its standard output; otherwise throws a `StartFailure`.
    static func start(announcing process: BackgroundProcess, seconds: Double,
                      folder: TemporaryDirectory? = nil) async throws -> HelperService {
        var port: Int?
        _ = await Polling.wait(seconds: seconds) {
            port = process.stdout.split(separator: "\n").first { $0.hasPrefix("READY ") }.flatMap { Int($0.dropFirst(6)) }
            return port != nil || !process.isRunning
        }
        guard let port else {
            let failure = await stopFailed(process)
            folder?.remove()
            throw failure
        }
        return HelperService(port: port, process: process, folder: folder)
    }

    /// Kills a process that did not become ready and says how it ended.
    private static func stopFailed(_ process: BackgroundProcess) async -> StartFailure {
        let timedOut = process.isRunning
        let result = await process.stop(signal: SIGKILL)
        return StartFailure(timedOut: timedOut, stderr: String(result.stderr.suffix(2000)))
    }

    /// Stops the process (with `signal`, SIGTERM by default) and removes its folder.
    func stop(signal: Int32 = SIGTERM) async {
        await process.stop(signal: signal)
        folder?.remove()
    }
}
