import Foundation
import SignetServer
import SignetTesting
import Testing

/// `signet serve --demo` exactly as `make demo` runs it: a data folder given relative to the
/// working directory (`--data ./signet-data`).
@Suite(.endToEndLimit) struct DemoCommandTests {
    @Test func demoStartsWithARelativeDataFolderAndShowsTheMockGoogleButton() async throws {
        let folder = try TemporaryDirectory(prefix: "demo-cwd")
        defer { folder.remove() }
        let server = try await TestServer.launchBinary(arguments: ["--demo"], dataDirectory: "./signet-data",
                                                       currentDirectory: folder.path)
        do {
            try await check(server, folder: folder)
        } catch {
            _ = await server.stop()
            throw error
        }
        _ = await server.stop()
    }

    /// `make demo`'s user is an operator: the console it prints opens with the demo credentials,
    /// over HTTP on the admin listener.
    @Test func theDemoUserSignsInToTheConsole() async throws {
        let server = try await TestServer.launchBinary(arguments: ["--demo"])
        do {
            try await consoleCheck(server)
        } catch {
            _ = await server.stop()
            throw error
        }
        _ = await server.stop()
    }

    func consoleCheck(_ server: BinaryServer) async throws {
        let line = try #require(server.stdout.split(separator: "\n").first { $0.hasPrefix("demo: console ") }, "\(server.stdout)")
        let word = line.dropFirst("demo: console ".count).split(separator: " ").first ?? ""
        let console = try #require(URL(string: String(word.dropLast())), "\(line)")
        #expect(console.absoluteString == (server.adminURL?.absoluteString ?? "") + "/console", "\(line)")
        #expect(line.hasSuffix("sign in as demo@example.com (operator role admin)"))
        let browser = FormBrowser()
        browser.trust(server.url("/"))
        let signIn = try await browser.open(console)
        #expect(signIn.status == 200 && signIn.url.path == Routes.signIn, "\(signIn.url)")
        let home = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": "demo@example.com", "password": "demo-password"])
        #expect(home.status == 200, "\(home.response.text)")
        #expect(home.url.absoluteString == console.absoluteString)
        #expect(home.response.text.contains("id=\"sign-ins-today\""))
        #expect(home.response.text.contains("demo@example.com"))
    }

    func check(_ server: BinaryServer, folder: TemporaryDirectory) async throws {
        #expect(server.stdout.contains("signet: issuer "))
        #expect(FileManager.default.fileExists(atPath: folder.appending("signet-data/demo-google-client-secret")))
        let authorize = server.url(Routes.authorize + "?" + URLQuery.encode([
            ("response_type", "code"), ("client_id", "demo-app"), ("redirect_uri", "http://127.0.0.1/callback"),
            ("scope", "openid"), ("state", "s"), ("code_challenge", PKCEPair.generate().challenge), ("code_challenge_method", "S256")]))
        let browser = FormBrowser()
        let page = try await browser.open(authorize)
        #expect(page.status == 200)
        #expect(page.response.text.contains("Sign in with Google (demo)"))
    }
}
