import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetCore
import SignetServer
import SignetStore

/// `signet users add|list|show|disable|enable|revoke|set-password|unlock-totp|unlink|role|delete`.
///
/// Passwords never appear on the command line: `--password-stdin` reads one line from standard
/// input (for scripts); otherwise, on a terminal, the password is asked twice without echo.
enum UsersCommand {
    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(RemoteAdmin.options).union(["name", "connection"]),
                                            flags: ["password-stdin", "no-password", "yes"])
        guard let action = arguments.positionals.first else {
            throw UsageError("users needs add, list, show, disable, enable, revoke, set-password, unlock-totp, unlink, role or delete")
        }
        // --admin-url: the same actions on a remote node, through its admin API.
        if let remote = try RemoteAdmin.from(arguments) {
            try await remote.users(action, arguments) { arguments.flag("no-password") ? nil : try readPassword(arguments) }
            return 0
        }
        let environment = try ServerEnvironment.open(try CommonOptions.configuration(arguments))
        let users = environment.makeUserService()
        // The admin API's operations, so the CLI and the API apply (and audit) the same rules.
        let admin = AdminService(environment: environment)
        switch action {
        case "add":
            guard arguments.positionals.count == 2 else { throw UsageError("users add needs exactly one EMAIL") }
            let email: String
            do { email = try UserService.normalizeEmail(arguments.positionals[1]) } catch { throw UsageError(error.message) }
            if try users.find(email) != nil { throw UsageError("a user with this email already exists") }
            let password = arguments.flag("no-password") ? nil : try readPassword(arguments)
            let user: UserRecord
            do { user = try users.create(email: email, name: arguments.value("name"), password: password) } catch let error as UserServiceError {
                throw UsageError(error.message)
            }
            users.auditor.record("user_created", subject: user.id, detail: ["after": AuditSnapshot.user(user)])
            Output.print(user.id)
        case "list":
            Output.print("SUB                     STATUS    EMAIL")
            for user in try users.all() {
                let status = user.disabledAt == nil ? "active" : "disabled"
                Output.print("\(user.id.padding(toLength: 23, withPad: " ", startingAt: 0)) \(status.padding(toLength: 9, withPad: " ", startingAt: 0)) \(user.email)")
            }
        case "show":
            let user = try findUser(arguments, users)
            Output.print("sub:            \(user.id)")
            Output.print("email:          \(user.email)")
            Output.print("email verified: \(user.emailVerified ? "yes" : "no")")
            Output.print("name:           \(user.name ?? "-")")
            Output.print("password:       \(user.passwordHash == nil ? "not set" : "set")")
            Output.print("status:         \(user.disabledAt.map { "disabled since \(KeysCommand.stamp($0))" } ?? "active")")
            Output.print("created:        \(KeysCommand.stamp(user.createdAt))")
            for link in try environment.storage.users.federatedIdentities(userID: user.id) {
                Output.print("linked:         \(link.connectionID) (\(link.issuer)) since \(KeysCommand.stamp(link.createdAt))")
            }
        case "disable":
            let user = try findUser(arguments, users)
            let result = try admin.setDisabled(user, true)
            Output.print("disabled \(user.id): ended \(result.sessions) session(s), revoked \(result.grants) grant(s)")
        case "enable":
            let user = try findUser(arguments, users)
            _ = try admin.setDisabled(user, false)
            Output.print("enabled \(user.id)")
        case "revoke":
            let user = try findUser(arguments, users)
            let result = try admin.revokeSessionsAndTokens(user)
            Output.print("revoked \(user.id): ended \(result.sessions) session(s), revoked \(result.grants) grant(s)")
        case "set-password":
            let user = try findUser(arguments, users)
            let password = try readPassword(arguments)
            let result: (sessions: Int, grants: Int)
            do { result = try users.setPassword(userID: user.id, password: password) } catch let error as UserServiceError {
                throw UsageError(error.message)
            }
            Output.print("password changed for \(user.id): ended \(result.sessions) session(s), revoked \(result.grants) grant(s)")
        case "unlock-totp":
            // After mfa.lock_after wrong codes in a row (the same unlock as the admin API's).
            let user = try findUser(arguments, users)
            Output.print(try admin.unlockTOTP(user) ? "unlocked the authenticator app of \(user.id)" : "\(user.id) has no locked authenticator app")
        case "unlink":
            let user = try findUser(arguments, users)
            guard let connection = arguments.value("connection") else { throw UsageError("users unlink needs --connection ID") }
            let removed = try users.unlink(userID: user.id, connectionID: connection)
            guard removed > 0 else { throw UsageError("\(user.id) has no identity linked through \"\(connection)\"") }
            Output.print("unlinked \(connection) from \(user.id)")
        case "role":
            // The console role (docs/operations.md, "The console"): admin, viewer or none.
            guard arguments.positionals.count == 3 else { throw UsageError("users role needs USER and admin, viewer or none") }
            guard let user = try users.find(arguments.positionals[1]) else { throw UsageError("no such user") }
            let role = arguments.positionals[2]
            do { try admin.setOperatorRole(user, role) } catch let error as AdminError { throw UsageError(error.description) }
            Output.print(role == "none" ? "\(user.id) has no console role" : "\(user.id) has the console role \(role)")
        case "delete":
            let user = try findUser(arguments, users)
            guard arguments.flag("yes") else {
                throw UsageError("users delete removes the account, its links, sessions and tokens for good; add --yes to confirm")
            }
            // The same deletion as the account page and DELETE /account (AccountDeletion).
            let federation = try Federation(configuration: environment.configuration, clock: { [clock = environment.clock] in clock.now })
            let outcome = try await AccountDeletion(environment: environment, federation: federation).delete(userID: user.id, via: "cli")
            Output.print("deleted \(user.id)")
            for connection in outcome.revoked { Output.print("revoked the \(connection) token") }
            for connection in outcome.revocationFailed {
                Output.print("could not revoke the \(connection) token (recorded in the audit log as upstream_revoke_failed)")
            }
        default:
            throw UsageError("unknown users action \"\(action)\"; use add, list, show, disable, enable, revoke, set-password, unlock-totp, unlink, role or delete")
        }
        return 0
    }

    private static func findUser(_ arguments: ParsedArguments, _ users: UserService) throws -> UserRecord {
        guard arguments.positionals.count == 2 else { throw UsageError("\(arguments.positionals[0]) needs one user id or email") }
        guard let user = try users.find(arguments.positionals[1]) else { throw UsageError("no such user") }
        return user
    }

    /// The new password: one line of standard input with `--password-stdin`, else asked twice
    /// without echo on a terminal. Checked against the password rules.
    private static func readPassword(_ arguments: ParsedArguments) throws -> String {
        let password: String
        if arguments.flag("password-stdin") {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            var text = String(decoding: data, as: UTF8.self)
            if let newline = text.firstIndex(where: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) { text = String(text[..<newline]) }
            password = text
        } else {
            guard isatty(0) == 1 else { throw UsageError("standard input is not a terminal: use --password-stdin") }
            guard let first = promptWithoutEcho("Password: "), let second = promptWithoutEcho("Repeat password: ") else {
                throw UsageError("no password was entered")
            }
            guard first == second else { throw UsageError("the passwords do not match") }
            password = first
        }
        do { try UserService.checkNewPassword(password) } catch { throw UsageError(error.message) }
        return password
    }

    private static func promptWithoutEcho(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let haveTerminal = tcgetattr(0, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(0, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
