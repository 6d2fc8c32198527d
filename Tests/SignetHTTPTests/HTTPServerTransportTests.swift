import Foundation
import Testing
import SignetTesting
@testable import SignetHTTP

/// IPv6 loopback and TLS.
@Suite(.endToEndLimit) struct HTTPServerTransportTests {
    @Test(.enabled(if: RealPart.ipv6Loopback.canRun, RealPart.ipv6Loopback.skipComment))
    func servesOnIPv6Loopback() throws {
        try RealPart.ipv6Loopback.use()
        let server = try TestServer(router: testRouter(), host: "::1")
        #expect(server.server.boundAddresses.first?.isIPv6 == true)
        let connection = try #require(RawConnection(port: server.port, host: "::1"))
        defer { connection.close() }
        connection.send("GET /echo HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("peer=::1"))
    }

    @Test func servesHTTPSWithSelfSignedCertificate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signet-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let openssl = try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                                   "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                                                   "-subj", "/CN=127.0.0.1"])
        #expect(openssl.status == 0)
        let server = try TestServer(router: testRouter()) {
            $0.tls = HTTPServerConfiguration.TLS(certificatePath: certificate, privateKeyPath: key)
        }
        let curl = try run("/usr/bin/curl", ["-sk", "--max-time", "10", "https://127.0.0.1:\(server.port)/echo?x=1"])
        #expect(curl.status == 0)
        #expect(curl.output.contains("secure=true"))
        #expect(curl.output.contains("q:x=1"))
        // Plain HTTP to the TLS port is not served.
        #expect(!server.isHealthy())
    }

    @Test func missingTLSFileIsAStartError() throws {
        var configuration = HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:0")], logLibraryErrors: false)
        configuration.tls = .init(certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
        let server = HTTPServer(configuration: configuration, router: Router())
        #expect(throws: HTTPServerError.unreadableTLSFile("/nonexistent/cert.pem")) { try server.start() }
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Subprocess.runBlocking(executable, arguments)
        return (result.wasSignaled ? -1 : result.status, result.stdout)
    }
}
