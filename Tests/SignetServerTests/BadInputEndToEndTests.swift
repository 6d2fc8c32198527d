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
    @Test(arguments: [Routes.openIDConfiguration, Routes.oauthAuthorizationServer, Routes.jwks, Routes.health])
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

    /// 60,000 distinct names each sent twice (about 840 KB, under the 1 MB body limit), then
    /// `state` twice: the answer names the repeated OAuth parameter. Finding repeats is one pass
    /// with a set; it was quadratic (6.3 s of CPU for this body on an HTTP thread).
    @Test func sixtyThousandRepeatedNamesInALogoutBodyGetTheRepeatedParameterPage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var body: [UInt8] = []
        body.reserveCapacity(800_000)
        for round in 0..<2 {
            for index in 0..<60_000 {
                body += Array(String(100_000 + index).utf8)
                body.append(UInt8(ascii: "&"))
            }
            body += Array("state=s\(round)&".utf8)
        }
        #expect(body.count > 700_000 && body.count < 1_048_576)
        let response = try await HTTPTestClient().send(method: "POST", url: server.url(Routes.endSession), body: body,
                                                       headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(response.status == 400)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.text.contains("The state parameter is repeated."))
        #expect(response.setCookies.isEmpty)
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
