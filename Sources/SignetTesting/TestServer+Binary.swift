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
                                    currentDirectory: String? = nil, startTimeoutSeconds: Double = 30) async throws -> BinaryServer {
        let binary = try PackagePaths.signetBinary()
        let temporary = dataDirectory == nil ? try TemporaryDirectory(prefix: "binary") : nil
        let data = dataDirectory ?? temporary?.appending("data") ?? ""
        // Port 0 is resolved by the binary before it binds; a parallel test can take the port in
        // between, so a start that fails that way is retried.
        let attempts = listen.hasSuffix(":0") ? 3 : 1
        var failure = ""
        launching: for _ in 0..<attempts {
            // The admin listener gets a free port too, so parallel servers never share its default port.
            let admin = arguments.contains("--admin-listen") ? [] : ["--admin-listen", "127.0.0.1:0"]
            switch try await attempt(binary: binary, arguments: ["serve", "--data", data, "--listen", listen] + admin + arguments,
                                     environment: environment, currentDirectory: currentDirectory,
                                     startTimeoutSeconds: startTimeoutSeconds, data: data, temporary: temporary) {
            case .success(let server): return server
            case .failure(let error):
                failure = error.message
                if !error.message.contains("(exited)") { break launching }   // a timeout is not retried
            }
        }
        temporary?.remove()
        throw TestingError(failure)
    }

    private static func attempt(binary: String, arguments: [String], environment: [String: String], currentDirectory: String?,
                                startTimeoutSeconds: Double, data: String, temporary: TemporaryDirectory?)
        async throws -> Result<BinaryServer, TestingError> {
        let launched = try Subprocess.launch(binary, arguments, environment: environment, currentDirectory: currentDirectory)
        try? launched.stdin.close()
        let output = OutputCollector(descriptor: launched.stdout)
        let errors = OutputCollector(descriptor: launched.stderr)
        let deadline = Date().addingTimeInterval(startTimeoutSeconds)
        while true {
            // The issuer line follows the listening lines, so both are there once it is.
            let text = output.text
            if let listening = Self.value(after: "signet: listening on ", in: text),
               let issuerLine = Self.value(after: "signet: issuer ", in: text),
               let url = URL(string: listening), let port = url.port {
                let issuer = String(issuerLine.prefix { $0 != ";" })
                let adminURL = Self.value(after: "signet: admin listening on ", in: text).flatMap(URL.init(string:))
                return .success(BinaryServer(baseURL: url, adminURL: adminURL, issuer: issuer, port: port, dataDirectory: data, launched: launched,
                                             output: output, errors: errors, temporary: temporary))
            }
            if !launched.process.isRunning || Date() > deadline {
                let running = launched.process.isRunning
                if running { await launched.process.stop(signal: SIGKILL) }
                _ = await output.waitUntilFinished(seconds: 2)
                _ = await errors.waitUntilFinished(seconds: 2)
                return .failure(TestingError("signet serve did not report listening (\(running ? "timed out" : "exited"));\n"
                    + "stdout: \(output.text)\nstderr: \(errors.text)"))
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
