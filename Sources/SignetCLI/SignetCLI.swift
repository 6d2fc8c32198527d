import Foundation
import SignetServer
import SignetCore

/// Entry point of the `signet` command: parses the subcommand and runs it.
public enum SignetCommandLine {
    static let usage = """
    usage: signet <command> [options]

    commands:
      serve          [--demo]: run the server (no --config: the embedded default in ./signet-data; --demo adds a mock Google)
      migrate        apply pending database migrations
      purge          [--rest N]: delete expired rows now (maintenance.purge_retention past expiry), resting N times
                       each batch's time between batches (maintenance.purge_rest; 0: no rest); prints the count
      keys           list | rotate [--algorithm ALG] [--prepublish SECONDS] | retire KID
      clients        add ID [--public (default) | --confidential] [--name N] [--redirect-uri URI]...
                       [--post-logout-redirect-uri URI]... [--scope "openid profile email offline_access"]
                       [--grant-type T]... [--first-party] [--auth-method client_secret_basic|client_secret_post]
                       [--id-token-alg RS256|ES256|PS256|EdDSA] [--access-token-lifetime S]
                       [--refresh-token-lifetime S] [--id-token-lifetime S] [--allow-headless]
                       [--resource URI]... [--mfa-required] [--application-type native|web|service|api]
                     | list | show ID | remove ID | rotate-secret ID
      users          add EMAIL [--name NAME] [--password-stdin] | list | show USER | disable USER | enable USER | revoke USER
                     | set-password USER [--password-stdin] | unlock-totp USER
                     | unlink USER --connection ID | delete USER --yes
                     | role USER admin|viewer|none: who may use the console
      orgs           create SLUG --name NAME | list | show ORG | rename ORG | delete ORG --yes | members … | roles …
                     | invite ORG EMAIL [--role R] | invitations ORG [resend|revoke ID]
                     | domains add|verify|bind|list|remove ORG [DOMAIN]  (signet orgs --help)
      mail           test --to ADDRESS: put a test message into the outbox (sent by signet serve); prints its id
      connections    list: the upstream identity providers and their callback URLs (with --admin-url: and their status)
      audit          verify | list [--since TIME] [--event NAME] [--subject USER] [--client ID] [--actor A] [--limit N]
      backup         --to FILE: a consistent copy of the SQLite database while the server runs
      check-config   FILE: report every mistake in a configuration file
      login          --issuer URL --client-id ID [--refresh | --logout | --print-access-token]: sign in from a terminal
      config-reference   print the configuration reference (Markdown)
      openapi        print the admin API's OpenAPI 3.1 document (docs/openapi.json)
      help           this text

    common options:
      --config FILE  the configuration file (signet.json)
      --data DIR     the data folder (overrides data_dir)
      --issuer URL   the issuer (overrides issuer)
      --listen HOST:PORT   listen address (repeatable; overrides listen)
      --admin-listen HOST:PORT   serve only: admin listener address (repeatable; overrides admin.listen; "off": none)
      --admin-url URL --token T  clients, users (all but set-password and unlink), keys, orgs (not domains),
                     connections and audit list: act on a remote node through its admin API
                     (or SIGNET_ADMIN_URL and SIGNET_ADMIN_TOKEN) instead of the local data folder
    """

    /// Runs the command line and returns the process exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            Output.error(usage)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        // Every audit event an admin command records names the actor `cli`.
        return await AuditContext.$current.withValue(command == "serve" ? nil : AuditContext(actor: "cli")) {
            await run(command, rest)
        }
    }

    private static func run(_ command: String, _ rest: [String]) async -> Int32 {
        if let help = help(for: command, rest) {
            Output.print(help)
            return 0
        }
        do {
            switch command {
            case "serve": return try await ServeCommand.run(rest)
            case "migrate": return try MigrateCommand.run(rest)
            case "purge": return try PurgeCommand.run(rest)
            case "keys": return try await KeysCommand.run(rest)
            case "clients": return try await ClientsCommand.run(rest)
            case "users": return try await UsersCommand.run(rest)
            case "orgs" where rest.first == "domains": return try DomainsCommand.run(Array(rest.dropFirst()))
            case "orgs": return try await OrgsCommand.run(rest)
            case "mail": return try MailCommand.run(rest)
            case "connections": return try await ConnectionsCommand.run(rest)
            case "audit": return try await AuditCommand.run(rest)
            case "backup": return try BackupCommand.run(rest)
            case "check-config": return try CheckConfigCommand.run(rest)
            case "login": return try await LoginCommand.run(rest)
            case "openapi":
                FileHandle.standardOutput.write(Data(SignetApplication.adminOpenAPIDocument()))
                return 0
            case "config-reference":
                Output.print(ConfigurationReference.markdown())
                return 0
            case "help", "--help", "-h":
                Output.print(usage)
                return 0
            default:
                Output.error("signet: unknown command \"\(command)\"\n\n\(usage)")
                return 64
            }
        } catch let error as UsageError {
            Output.error("signet \(command): \(error.message)")
            return 64
        } catch let error as ConfigurationError {
            Output.error("signet \(command): the configuration has mistakes:\n\(error.description)")
            return 78
        } catch let error as ConfigurationIssue {
            Output.error("signet \(command): \(error.description)")
            return 78
        } catch {
            Output.error("signet \(command): \(error)")
            return 1
        }
    }
}

extension SignetCommandLine {
    /// `signet COMMAND --help` (or `-h`, before any `--`): the command's own usage, or its lines of
    /// the main usage with the common options; nil when no help was asked for or the command is unknown.
    static func help(for command: String, _ arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        guard options.contains("--help") || options.contains("-h") else { return nil }
        switch command {
        case "audit": return AuditCommand.usage
        case "backup": return BackupCommand.usage
        case "login": return LoginCommand.usage
        case "orgs": return OrgsCommand.usage + "\n" + DomainsCommand.usage
        case "help": return usage
        default: break
        }
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(command) ") }) else { return nil }
        var section = ["usage: signet " + lines[start].dropFirst(2).trimmingCharacters(in: .whitespaces)]
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("       ") else { break }   // continuation lines are indented further
            section.append("       " + line.trimmingCharacters(in: .whitespaces))
        }
        guard let common = lines.firstIndex(where: { $0.hasPrefix("common options:") }) else { return section.joined(separator: "\n") }
        return (section + [""] + lines[common...].map(String.init)).joined(separator: "\n")
    }
}

/// Standard output and error, without the concurrency-unsafe C globals.
enum Output {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
