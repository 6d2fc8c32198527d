import Foundation
import SignetTesting
import Testing

/// `--help` (and `-h`) on every subcommand of the real binary: exit status 0, the command's usage
/// on standard output, nothing touched (no data folder is created).
@Suite(.endToEndLimit) struct CLIHelpTests {
    static let commands = ["serve", "migrate", "purge", "keys", "clients", "users", "mail", "connections", "audit", "backup",
                           "check-config", "login", "config-reference", "help"]

    @Test(arguments: commands)
    func everySubcommandAnswersHelp(_ command: String) async throws {
        let folder = try TemporaryDirectory(prefix: "help")
        defer { folder.remove() }
        for flag in ["--help", "-h"] {
            let result = try await SignetBinary.run([command, flag], currentDirectory: folder.path)
            #expect(result.status == 0, "\(command) \(flag): \(result)")
            #expect(result.stdout.hasPrefix("usage: signet"), "\(command) \(flag): \(result.stdout.prefix(200))")
            if command != "help" { #expect(result.stdout.contains(command), "\(command) \(flag)") }
            #expect(result.stderr.isEmpty, "\(command) \(flag): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appending("signet-data")), "\(command) --help created a data folder")
    }

    /// An unknown subcommand is still refused (exit 64) with the list of commands.
    @Test func anUnknownCommandIsRefused() async throws {
        let result = try await SignetBinary.run(["frobnicate", "--help"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown command"))
    }
}
