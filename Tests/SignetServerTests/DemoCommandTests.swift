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
