import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension TestServer {
    /// Runs the real `signet serve` executable (`PackagePaths.signetBinary()`) as a subprocess:
    /// `signet serve --data DIR --listen LISTEN ARGUMENTS…`, waits for its "listening on" line,
    /// and returns it running.
    ///
    /// - Parameters:
    ///   - arguments: extra arguments after the data folder and listen address.
    ///   - dataDirectory: the data folder; nil uses a fresh temporary one, removed on stop.
    ///   - listen: the listen address; the default lets the binary pick a free port.
    ///   - environment: variables added to the child's environment.
    ///   - startTimeoutSeconds: how long to wait for the "listening on" line.
    public static func launchBinary(arguments: [String] = [], dataDirectory: String? = nil,
                                    listen: String = "127.0.0.1:0", environment: [String: String] = [:],
                                    startTimeoutSeconds: Double = 30) async throws -> BinaryServer {
        let binary = try PackagePaths.signetBinary()
        let temporary = dataDirectory == nil ? try TemporaryDirectory(prefix: "binary") : nil
        let data = dataDirectory ?? temporary?.appending("data") ?? ""
        let launched = try Subprocess.launch(binary, ["serve", "--data", data, "--listen", listen] + arguments,
                                             environment: environment, currentDirectory: nil)
        try? launched.stdin.close()
        let output = OutputCollector(launched.stdout)
        let errors = OutputCollector(launched.stderr)
        let deadline = Date().addingTimeInterval(startTimeoutSeconds)
        while true {
            // The issuer line follows the listening lines, so both are there once it is.
            let text = output.text
            if let listening = Self.value(after: "signet: listening on ", in: text),
               let issuerLine = Self.value(after: "signet: issuer ", in: text),
               let url = URL(string: listening), let port = url.port {
                let issuer = String(issuerLine.prefix { $0 != ";" })
                return BinaryServer(baseURL: url, issuer: issuer, port: port, dataDirectory: data, launched: launched,
                                    output: output, errors: errors, temporary: temporary)
            }
            if !launched.process.isRunning || Date() > deadline {
                if launched.process.isRunning { kill(launched.process.processIdentifier, SIGKILL) }
                _ = await output.waitUntilFinished(seconds: 2)
                _ = await errors.waitUntilFinished(seconds: 2)
                temporary?.remove()
                throw TestingError("signet serve did not report listening (\(launched.process.isRunning ? "timed out" : "exited"));\n"
                    + "stdout: \(output.text)\nstderr: \(errors.text)")
            }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// The rest of the first complete line that starts with `prefix`.
    static func value(after prefix: String, in text: String) -> String? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix(prefix) {
            // Only complete lines: the newline must have arrived.
            guard text.contains(line + "\n") else { return nil }
            return String(line.dropFirst(prefix.count))
        }
        return nil
    }
}
