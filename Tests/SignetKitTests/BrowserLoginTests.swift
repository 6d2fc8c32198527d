import Foundation
import SignetServer
import SignetTesting
import Testing

/// `signet login` (the real binary) against `signet serve --demo` (the real binary), with headless
/// Chromium from Debian as the system browser, driven over WebDriver (selenium): the README's
/// walkthrough, end to end. Then the access token it prints is accepted by Examples/ExampleAPI.
@Suite("signet login in a real browser", .serialized, .endToEndLimit) struct BrowserLoginTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetKitTests/Browser/signin.py").path

    static let logo = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetKitTests/Browser/acme-logo.svg").path

    /// The demo in a brand of its own (docs/branding.md): the pages the browser shows, and the
    /// screenshots of docs/images, are Acme's.
    static func brandedConfiguration(in folder: TemporaryDirectory) throws -> String {
        try folder.write(#"""
            {"branding": {"product_name": "Acme Notes", "primary_color": "#0a7d3b", "logo_file": "\#(logo)",
                          "support_url": "https://acme.example/help", "terms_url": "https://acme.example/terms",
                          "privacy_url": "https://acme.example/privacy"}}
            """#, to: "signet.json")
    }

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func signetLoginSignsInThroughChromiumAndTheExampleAPIAcceptsTheToken() async throws {
        try RealPart.chromium.use()
        let folder = try TemporaryDirectory(prefix: "login-brand")
        defer { folder.remove() }
        let server = try await TestServer.launchBinary(arguments: ["--demo", "--config", try Self.brandedConfiguration(in: folder)])
        do {
            try await walkthrough(server)
        } catch {
            _ = await server.stop()
            throw error
        }
        _ = await server.stop()
    }

    func walkthrough(_ server: BinaryServer) async throws {
        let home = try TemporaryDirectory(prefix: "login-home")
        defer { home.remove() }
        let logFile = home.appending("browser.log")
        var environment = ["XDG_CONFIG_HOME": home.appending("config"), "SIGNET_TEST_EMAIL": "demo@example.com",
                           "SIGNET_TEST_PASSWORD": "demo-password", "SIGNET_TEST_LOG": logFile,
                           "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
        if let shots = ProcessInfo.processInfo.environment["SIGNET_SCREENSHOTS"] { environment["SIGNET_SCREENSHOTS"] = shots }
        let common = ["login", "--issuer", server.issuer, "--client-id", "demo-app", "--insecure-file-storage"]

        let login = try await SignetBinary.run(common + ["--browser-command", "\(PackagePaths.python) \(Self.script)", "--timeout", "90"],
                                               environment: environment, timeoutSeconds: 120)
        let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
        #expect(login.status == 0, "stderr: \(login.stderr)\nbrowser: \(browserLog)")
        #expect(browserLog.contains("sign-in page: Sign in · Acme Notes"), "the branded title, as Chromium shows it: \(browserLog)")
        #expect(browserLog.contains("logo: 200x40"), "the logo file loaded under the page's CSP: \(browserLog)")
        if environment["SIGNET_SCREENSHOTS"] != nil {
            #expect(browserLog.contains("German sign-in page: Anmelden · Acme Notes"), "\(browserLog)")
        }
        #expect(login.stdout.contains("Signed in to \(server.issuer)"))
        #expect(login.stdout.contains("email: demo@example.com"))
        #expect(login.stdout.contains("name:  Demo User"))
        #expect(login.stderr.contains("not protected by a keyring") || login.stderr.contains("protected only by its permissions"))

        // The access token for scripts, accepted by the example API; refused by an API that is another audience.
        let printed = try await SignetBinary.run(common + ["--print-access-token"], environment: environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        let token = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.split(separator: ".").count == 3)
        try await ExampleAPIProcess.with(issuer: server.issuer, audience: server.issuer) { api in
            let ok = try await HTTPTestClient().get(api.url("/hello"), headers: ["Authorization": "Bearer \(token)"])
            #expect(ok.status == 200)
            #expect(ok.text.contains("\"client_id\":\"demo-app\""))
            let tampered = token.dropLast(2) + (token.hasSuffix("AA") ? "BB" : "AA")
            let bad = try await HTTPTestClient().get(api.url("/hello"), headers: ["Authorization": "Bearer \(tampered)"])
            #expect(bad.status == 401)
            #expect(bad.header("WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)
            let none = try await HTTPTestClient().get(api.url("/hello"))
            #expect(none.status == 401)
            #expect(none.header("WWW-Authenticate") == "Bearer realm=\"example-api\"")
        }
        try await ExampleAPIProcess.with(issuer: server.issuer, audience: "https://api.other.example") { api in
            let other = try await HTTPTestClient().get(api.url("/hello"), headers: ["Authorization": "Bearer \(token)"])
            #expect(other.status == 401)
            #expect(other.header("WWW-Authenticate")?.contains("another audience") == true)
        }

        // Refresh and logout for scripts; after logout there is no token to print.
        let refreshed = try await SignetBinary.run(common + ["--refresh"], environment: environment)
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        let logout = try await SignetBinary.run(common + ["--logout"], environment: environment)
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stdout.contains("signed out"))
        let after = try await SignetBinary.run(common + ["--print-access-token"], environment: environment)
        #expect(after.status == 1)
        #expect(after.stderr.contains("not signed in"))
    }

    /// With a session bus and a Secret Service (a throwaway gnome-keyring), `signet login` keeps
    /// the tokens in the keyring by default: no flag, no warning, no token file.
    @Test(.enabled(if: RealPart.chromium.canRun && RealPart.keyring.canRun,
                   RealPart.chromium.canRun ? RealPart.keyring.skipComment : RealPart.chromium.skipComment))
    func signetLoginStoresTheTokensInTheKeyring() async throws {
        try RealPart.chromium.use()
        let keyring = try await ThrowawayKeyring.start()
        defer { keyring.stop() }
        let server = try await TestServer.launchBinary(arguments: ["--demo"])
        do {
            let logFile = keyring.home.appending("browser.log")
            let environment = keyring.environment.merging(["SIGNET_TEST_EMAIL": "demo@example.com", "SIGNET_TEST_PASSWORD": "demo-password",
                                                           "SIGNET_TEST_LOG": logFile]) { $1 }
            let common = ["login", "--issuer", server.issuer, "--client-id", "demo-app"]
            let login = try await SignetBinary.run(common + ["--browser-command", "\(PackagePaths.python) \(Self.script)", "--timeout", "90"],
                                                   environment: environment, timeoutSeconds: 120)
            let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
            #expect(login.status == 0, "stderr: \(login.stderr)\nbrowser: \(browserLog)")
            #expect(login.stdout.contains("email: demo@example.com"))
            #expect(!login.stderr.contains("warning"), "\(login.stderr)")
            #expect(!FileManager.default.fileExists(atPath: keyring.home.appending("config/signet/tokens")), "no token file")

            // Another process finds the session in the keyring.
            let printed = try await SignetBinary.run(common + ["--print-access-token"], environment: environment)
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
            let logout = try await SignetBinary.run(common + ["--logout"], environment: environment)
            #expect(logout.status == 0, "\(logout.stderr)")
            let after = try await SignetBinary.run(common + ["--print-access-token"], environment: environment)
            #expect(after.status == 1)
            #expect(after.stderr.contains("not signed in"))
        } catch {
            _ = await server.stop()
            throw error
        }
        _ = await server.stop()
    }

    /// The same walkthrough through a federated connection: `signet serve --demo` runs a mock
    /// Google beside Signet; Chromium follows "Sign in with Google (demo)", the mock approves its
    /// user, Signet provisions the account and `signet login` prints it.
    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func signetLoginSignsInThroughTheDemoGoogleConnection() async throws {
        try RealPart.chromium.use()
        let server = try await TestServer.launchBinary(arguments: ["--demo"])
        do {
            let home = try TemporaryDirectory(prefix: "login-home")
            defer { home.remove() }
            let logFile = home.appending("browser.log")
            let environment = ["XDG_CONFIG_HOME": home.appending("config"), "SIGNET_TEST_CONNECTION": "Google (demo)",
                               "SIGNET_TEST_LOG": logFile, "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
            let login = try await SignetBinary.run(
                ["login", "--issuer", server.issuer, "--client-id", "demo-app", "--insecure-file-storage",
                 "--browser-command", "\(PackagePaths.python) \(Self.script)", "--timeout", "90"],
                environment: environment, timeoutSeconds: 120)
            let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
            #expect(login.status == 0, "stderr: \(login.stderr)\nbrowser: \(browserLog)")
            #expect(login.stdout.contains("Signed in to \(server.issuer)"))
            #expect(login.stdout.contains("email: google-user@example.com"), "\(login.stdout)")
            #expect(login.stdout.contains("name:  Gail Google"))
        } catch {
            _ = await server.stop()
            throw error
        }
        _ = await server.stop()
    }

    @Test func withoutAKeyringTheFileStoreNeedsTheFlag() async throws {
        let home = try TemporaryDirectory(prefix: "login-home")
        defer { home.remove() }
        let result = try await SignetBinary.run(["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x"],
                                                environment: ["XDG_CONFIG_HOME": home.appending("config"), "DBUS_SESSION_BUS_ADDRESS": ""])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--insecure-file-storage"))
    }
}

/// Examples/ExampleAPI running as a subprocess.
struct ExampleAPIProcess {
    let port: Int

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/") }

    /// Starts the example API, waits until it answers, runs `body`, and stops it.
    static func with(issuer: String, audience: String, _ body: (ExampleAPIProcess) async throws -> Void) async throws {
        let binary = URL(fileURLWithPath: try PackagePaths.signetBinary()).deletingLastPathComponent().appendingPathComponent("ExampleAPI").path
        let port = try FreePort.pick()
        let process = try BackgroundProcess(binary, ["--issuer", issuer, "--audience", audience, "--listen", "127.0.0.1:\(port)"])
        defer { process.kill() }
        let api = ExampleAPIProcess(port: port)
        var ready = false
        for _ in 0..<100 where !ready {
            if let response = try? await HTTPTestClient(timeoutSeconds: 1).get(api.url("/healthz")), response.status == 200 { ready = true } else {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        guard ready else { throw TestingError("ExampleAPI did not start on port \(port)") }
        try await body(api)
    }
}
