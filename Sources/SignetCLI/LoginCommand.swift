import Foundation
import SignetClientCore
import SignetKit

/// `signet login`: signs in to an OpenID provider from a terminal with SignetKit — discovery, a
/// loopback listener on 127.0.0.1 (RFC 8252 §7.3), the system browser (or the URL printed), the
/// checked callback, the code exchange, the stored tokens — and prints who signed in.
///
/// `--refresh`, `--logout` and `--print-access-token` work on the stored session, for scripts.
/// `--ca-file` trusts a private CA instead of the system's; `--pin-sha256` (repeatable) pins the
/// issuer's public key on top of the normal verification.
/// Tokens go to the Secret Service when a session bus is available; otherwise only
/// `--insecure-file-storage` allows a 0600 file under `$XDG_CONFIG_HOME/signet`, with a warning.
enum LoginCommand {
    static let usage = """
    usage: signet login --issuer URL --client-id ID [--scope "openid profile email offline_access"]
                        [--redirect-uri http://127.0.0.1/callback] [--redirect-port N] [--no-browser]
                        [--browser-command CMD] [--timeout SECONDS] [--insecure-file-storage]
                        [--ca-file PEM] [--pin-sha256 BASE64]...
           signet login --issuer URL --client-id ID (--refresh | --logout | --print-access-token)
    """

    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(
            raw, options: ["issuer", "client-id", "scope", "redirect-uri", "redirect-port", "browser-command", "timeout",
                           "ca-file", "pin-sha256"],
            flags: ["no-browser", "insecure-file-storage", "refresh", "logout", "print-access-token", "help"])
        if arguments.flag("help") {
            Output.print(usage)
            return 0
        }
        let environment = ProcessInfo.processInfo.environment
        guard let issuer = arguments.value("issuer") ?? environment["SIGNET_LOGIN_ISSUER"] else { throw UsageError("--issuer is required\n\(usage)") }
        guard let clientID = arguments.value("client-id") ?? environment["SIGNET_LOGIN_CLIENT_ID"] else { throw UsageError("--client-id is required\n\(usage)") }
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument \(arguments.positionals[0])") }
        let modes = ["refresh", "logout", "print-access-token"].filter(arguments.flag)
        guard modes.count <= 1 else { throw UsageError("--refresh, --logout and --print-access-token exclude each other") }
        let port = try arguments.integer("redirect-port") ?? 0
        guard (0...65535).contains(port) else { throw UsageError("--redirect-port must be between 0 and 65535") }
        let timeout = TimeInterval(try arguments.integer("timeout") ?? 300)

        var configuration = ClientConfiguration(issuer: issuer, clientID: clientID,
                                                redirectURI: arguments.value("redirect-uri") ?? "http://127.0.0.1/callback")
        if let scope = arguments.value("scope") {
            configuration.scopes = scope.split(separator: " ").map(String.init)
            if !configuration.scopes.contains("openid") { configuration.scopes.insert("openid", at: 0) }
        }
        let pins = try arguments.all("pin-sha256").map { text -> [UInt8] in
            guard let data = Data(base64Encoded: text), data.count == 32 else {
                throw UsageError("--pin-sha256 takes the base64 SHA-256 of a SubjectPublicKeyInfo (44 characters)")
            }
            return Array(data)
        }
        if !pins.isEmpty, !issuer.lowercased().hasPrefix("https://") { throw UsageError("--pin-sha256 needs an https issuer") }
        let http = OutboundHTTP(trustedCertificatesFile: arguments.value("ca-file"), pinnedKeyHashes: pins)
        let storage = try chooseStorage(insecureFile: arguments.flag("insecure-file-storage"))
        let client: SignInClient
        do {
            client = try await SignInClient.discover(configuration, storage: storage, http: http)
        } catch {
            Output.error("signet login: \(error)")
            return 1
        }

        switch modes.first {
        case "print-access-token":
            guard let session = client.restoreSession() else { return notSignedIn() }
            do {
                Output.print(try await session.freshAccessToken())
            } catch {
                Output.error("signet login: \(error)")
                return 1
            }
        case "refresh":
            guard let session = client.restoreSession() else { return notSignedIn() }
            do {
                let tokens = try await session.refresh()
                Output.print("refreshed; the access token is valid until \(ISO8601DateFormatter().string(from: tokens.accessTokenExpiresAt))")
            } catch {
                Output.error("signet login: \(error)")
                return 1
            }
        case "logout":
            guard let session = client.restoreSession() else { return notSignedIn() }
            guard let result = await session.signOut() else { return notSignedIn() }
            var status: Int32 = 0
            if let storageError = result.storageError {
                Output.error("signet login: the stored tokens could not be deleted: \(storageError)")
                status = 1
            }
            let local = result.storageError == nil ? "the local copy was deleted" : "the local copy could NOT be deleted"
            switch result.revocation {
            case .revoked:
                Output.print("signed out of \(issuer); the refresh token was revoked and \(local)")
            case .unsupported:
                Output.print("signed out of \(issuer); \(local), but the server offers no revocation: the refresh token stays valid until it expires")
            case .failed(let error):
                Output.error("signet login: revoking the refresh token failed (\(error)); it may still be valid")
                Output.print("signed out locally: \(local); the refresh token was NOT revoked")
                status = 1
            }
            if let url = client.endSessionURL(idTokenHint: result.idToken) {
                Output.error("to end the browser session too, open:\n  \(url.absoluteString)")
            }
            return status
        default:
            let session: AuthState
            do {
                let listener = try LoopbackListener(port: port, path: Self.path(of: configuration.redirectURI))
                let browser = ExternalBrowser(command: arguments.value("browser-command"))
                let noBrowser = arguments.flag("no-browser")
                session = try await client.signIn(with: listener, timeout: timeout) { url in
                    if !noBrowser, case .launched = browser.open(url) {
                        Output.error("Opened the browser to sign in. Waiting for the sign-in to finish…")
                    } else {
                        Output.error("Open this address in a browser to sign in:\n\n  \(url.absoluteString)\n\nWaiting for the sign-in to finish…")
                    }
                }
            } catch {
                Output.error("signet login: \(error)")
                return 1
            }
            guard let tokens = await session.currentTokens else { return notSignedIn() }
            Output.print(describe(tokens, issuer: issuer))
        }
        return 0
    }

    /// Who signed in, for people (stdout).
    static func describe(_ tokens: StoredTokens, issuer: String) -> String {
        var lines = ["Signed in to \(issuer)"]
        lines.append("  sub:   \(tokens.subject)")
        if let email = tokens.claims["email"] { lines.append("  email: \(email)") }
        if let name = tokens.claims["name"] { lines.append("  name:  \(name)") }
        if let scope = tokens.scope { lines.append("  scope: \(scope)") }
        return lines.joined(separator: "\n")
    }

    static func notSignedIn() -> Int32 {
        Output.error("signet login: not signed in; run signet login first")
        return 1
    }

    /// The path of the registered loopback redirect URI (the listener serves only it).
    static func path(of redirectURI: String) throws -> String {
        guard let components = URLComponents(string: redirectURI), components.scheme == "http",
              components.host == "127.0.0.1" else {
            throw UsageError("signet login needs a loopback redirect URI on 127.0.0.1 (RFC 8252 §7.3), got \(redirectURI)")
        }
        return components.path.isEmpty ? "/" : components.path
    }

    /// The Secret Service when a session bus is there; else the file store, only when asked for.
    static func chooseStorage(insecureFile: Bool) throws -> any TokenStorage {
        if insecureFile {
            Output.error(FileTokenStorage.warning)
            return FileTokenStorage(directory: FileTokenStorage.defaultDirectory())
        }
        if let keyring = KeyringStorage.available() { return keyring }
        throw UsageError("no keyring (Secret Service) is available to store the tokens; "
            + "pass --insecure-file-storage to keep them in a 0600 file under \(FileTokenStorage.defaultDirectory().path)")
    }
}
