/// Runs one `signet` subcommand (the real executable) to completion: for CLI tests.
public enum SignetBinary {
    /// `signet ARGUMENTS…` with optional standard input and extra environment variables.
    public static func run(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:],
                           currentDirectory: String? = nil, timeoutSeconds: Double = 60) async throws -> SubprocessResult {
        try await Subprocess.run(try PackagePaths.signetBinary(), arguments, stdin: stdin, environment: environment,
                                 currentDirectory: currentDirectory, timeoutSeconds: timeoutSeconds)
    }
}
