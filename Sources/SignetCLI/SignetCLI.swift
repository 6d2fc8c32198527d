import Foundation

/// Entry point of the `signet` command: parses the subcommand and runs it.
public enum SignetCommandLine {
    /// Runs the command line and returns the process exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        FileHandle.standardError.write(Data("signet: no subcommands yet\n".utf8))
        return 64
    }
}
