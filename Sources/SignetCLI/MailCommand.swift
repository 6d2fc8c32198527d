import Foundation
import SignetMail
import SignetServer

/// `signet mail test --to ADDRESS`: puts a test message into the outbox of the configured store
/// and prints its id; a running `signet serve` (any node on the same database) sends it. The
/// server's log names the id if the message fails.
enum MailCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(["to"]), flags: [])
        guard arguments.positionals.first == "test" else {
            throw UsageError("usage: signet mail test --to ADDRESS")
        }
        guard arguments.positionals.count == 1 else { throw UsageError("unexpected argument \(arguments.positionals[1])") }
        guard let toText = arguments.value("to") else { throw UsageError("--to ADDRESS is required") }
        let to: MailAddress
        do { to = try MailAddress(toText) } catch { throw UsageError("--to: \(error.reason)") }
        let configuration = try CommonOptions.configuration(arguments)
        guard configuration.isMailConfigured else {
            throw ConfigurationIssue(path: "mail.smtp_url", message: "is not set, so no mail would be sent")
        }
        let environment = try ServerEnvironment.open(configuration)
        let id = try environment.mail.enqueue(
            to: to, subject: "Signet test message",
            text: "This is a test message from the Signet at \(configuration.issuer). It arrived, so mail works.\n")
        Output.print(id)
        return 0
    }
}
