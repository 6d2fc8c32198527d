import Foundation
import SignetServer
import SignetTesting
import Testing

/// Hostile and broken requests against the real Signet server (its own limits and routes, not just
/// SignetHTTP's): each gets a clear 4xx or a closed connection, and the server keeps answering.
@Suite(.endToEndLimit) struct BadInputEndToEndTests {
    static func expectStillHealthy(_ server: TestServer) async throws {
        let outcome = try await RawHTTPConnection.exchange(port: server.port,
            request: "GET \(Routes.health) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(outcome.response?.status == 200, "server stopped answering /healthz: \(outcome)")
    }

    @Test func oneMegabyteHeaderIsRefused() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let filler = String(repeating: "a", count: 1_048_576)
        let outcome = try await RawHTTPConnection.exchange(port: server.port,
            request: "GET \(Routes.health) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(filler)\r\n\r\n")
        #expect(outcome.isRefusal, "\(outcome)")
        try await Self.expectStillHealthy(server)
    }

    @Test func headerJustOverTheConfiguredLimitIsRefused() async throws {
        let server = try TestServer { $0.http.maxHeaderBytes = 4096 }
        defer { server.stop() }
        let outcome = try await RawHTTPConnection.exchange(port: server.port,
            request: "GET \(Routes.health) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n")
        #expect(outcome.isRefusal, "\(outcome)")
        try await Self.expectStillHealthy(server)
    }

    @Test func hundredMegabyteBodyIsRefusedBeforeItIsSent() async throws {
        let server = try TestServer()
        defer { server.stop() }
        // Only the head goes out: a 413 must come back without the body ever being sent.
        let outcome = try await RawHTTPConnection.exchange(port: server.port,
            request: "POST \(Routes.health) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 104857600\r\n\r\n")
        #expect(outcome.response?.status == 413, "\(outcome)")
        try await Self.expectStillHealthy(server)
    }

    @Test(arguments: ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /healthz HTTP/1.1 extra\r\nHost: x\r\n\r\n",
                      "GET /healthz HTTP/7.0\r\nHost: x\r\n\r\n", "GET /healthz HTTP/1.1\r\n\r\n",
                      "GET /healthz HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n",
                      "\u{1}\u{2}\u{3}\r\n\r\n"])
    func malformedRequestLineOrHeadIsRefused(raw: String) async throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try await RawHTTPConnection.exchange(port: server.port, request: raw, timeoutSeconds: 5)
        #expect(outcome.isRefusal, "\(outcome)")
        try await Self.expectStillHealthy(server)
    }

    /// Invalid UTF-8 and broken percent-encoding, raw on the wire.
    @Test(arguments: ["/nope?x=%zz", "/nope?x=%", "/nope?x=%C3", "/nope?%80=1"])
    func brokenEncodingGetsA4xx(target: String) async throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try await RawHTTPConnection.exchange(port: server.port,
            request: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(outcome.isRefusal, "\(outcome)")
        try await Self.expectStillHealthy(server)
    }

    @Test func nulBytesInTheRequestLineAreRefused() async throws {
        let server = try TestServer { $0.http.connectionTimeoutSeconds = 2 }
        defer { server.stop() }
        let request = Array("GET /heal".utf8) + [0] + Array("thz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let outcome = try await RawHTTPConnection.exchange(port: server.port, request: request, timeoutSeconds: 5)
        #expect(outcome.isRefusal, "\(outcome)")
        // A line of only control bytes reads as an empty line, which HTTP allows before a request
        // (RFC 9112 §2.2); the server waits for the request and the idle timeout closes it.
        let leading = try await RawHTTPConnection.exchange(port: server.port, request: [0, 1, 2, 13, 10, 13, 10], timeoutSeconds: 10)
        #expect(leading.isRefusal, "\(leading)")
        try await Self.expectStillHealthy(server)
    }

    @Test func rawNonUTF8BytesInTheTargetAreRefused() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let request = Array("GET /nope?x=".utf8) + [0xFF, 0xC3, 0x28] + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let outcome = try await RawHTTPConnection.exchange(port: server.port, request: request)
        #expect(outcome.isRefusal, "\(outcome)")
        try await Self.expectStillHealthy(server)
    }

    /// The metadata routes take no parameters and ignore the query, broken or not: the normal
    /// document, never a 5xx. (Endpoints that read parameters must refuse a broken query with 400;
    /// their own end-to-end tests check that.)
    @Test(arguments: [Routes.openIDConfiguration, Routes.jwks, Routes.health])
    func brokenQueryOnAParameterlessRouteIsIgnored(path: String) async throws {
        let server = try TestServer()
        defer { server.stop() }
        let clean = try await HTTPTestClient().get(server.url(path))
        let outcome = try await RawHTTPConnection.exchange(port: server.port,
            request: "GET \(path)?x=%zz&y=%C3 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = try #require(outcome.response, "\(outcome)")
        #expect(response.status == 200)
        #expect(response.body == clean.body)
        try await Self.expectStillHealthy(server)
    }

    @Test(arguments: ["/%ff%fe", "/no%ZZpe", "/%00"])
    func undecodablePathIsA4xxNotA5xx(path: String) async throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try await RawHTTPConnection.exchange(port: server.port,
            request: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = try #require(outcome.response, "\(outcome)")
        #expect((400...499).contains(response.status), "\(response)")
        try await Self.expectStillHealthy(server)
    }
}
