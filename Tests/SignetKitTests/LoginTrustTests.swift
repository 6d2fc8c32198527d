import Foundation
import SignetServer
import SignetTesting
import Testing

/// `signet login --ca-file` and `--pin-sha256` against a Signet serving https with a certificate
/// no system trusts: discovery succeeds only when the CA is given and, if pins are given, when one
/// of them is the server's key.
@Suite(.endToEndLimit) struct LoginTrustTests {
    func login(_ server: TestServer, _ extra: [String], home: TemporaryDirectory) async throws -> SubprocessResult {
        try await SignetBinary.run(["login", "--issuer", server.issuer, "--client-id", "native", "--insecure-file-storage",
                                    "--print-access-token"] + extra,
                                   environment: ["XDG_CONFIG_HOME": home.appending("config"), "DBUS_SESSION_BUS_ADDRESS": ""])
    }

    @Test func aPrivateCAAndPinsDecideWhetherDiscoverySucceeds() async throws {
        let server = try TestServer(tlsHost: "127.0.0.1")
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "login-trust")
        defer { home.remove() }
        let certificate = try #require(server.configuration.http.tlsCertificateFile)
        let pin = try await CertificatePin.base64(ofCertificate: certificate)
        #expect(pin.count == 44)
        let other = Data(repeating: 7, count: 32).base64EncodedString()

        let untrusted = try await login(server, [], home: home)
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("not trusted"), "\(untrusted.stderr)")

        // Discovery works with the CA; then there is simply no stored session yet.
        let trusted = try await login(server, ["--ca-file", certificate], home: home)
        #expect(trusted.status == 1)
        #expect(trusted.stderr.contains("not signed in"), "\(trusted.stderr)")
        let pinned = try await login(server, ["--ca-file", certificate, "--pin-sha256", other, "--pin-sha256", pin], home: home)
        #expect(pinned.stderr.contains("not signed in"), "\(pinned.stderr)")

        let wrongPin = try await login(server, ["--ca-file", certificate, "--pin-sha256", other], home: home)
        #expect(wrongPin.status == 1)
        #expect(wrongPin.stderr.contains("not pinned"), "\(wrongPin.stderr)")
        let malformed = try await login(server, ["--ca-file", certificate, "--pin-sha256", "abc"], home: home)
        #expect(malformed.status == 64)
    }
}
