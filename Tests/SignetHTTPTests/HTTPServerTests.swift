import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SignetTesting
import Synchronization
import Testing
@testable import SignetHTTP

@Suite(.endToEndLimit) struct HTTPServerTests {
    @Test func servesJSONWithHeaders() async throws {
        let server = try TestServer(router: testRouter())
        let (status, headers, body) = try await server.fetch("/hello")
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "{\"hello\":\"world\"}")
        #expect(headers["Content-Type"] == "application/json")
        #expect(headers["Content-Length"] == "17")
        #expect(headers["Date"] != nil)
    }

    @Test func requestPartsReachTheHandler() async throws {
        let server = try TestServer(router: testRouter())
        let (status, _, body) = try await server.fetch("/echo?x=1&y=a+b%2Bc&x=2")
        #expect(status == 200)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("rawQuery=x=1&y=a+b%2Bc&x=2"))
        #expect(text.contains("q:y=a b+c"))
        #expect(text.contains("single=parameter 'x' is repeated"))
        #expect(text.contains("peer=127.0.0.1"))
        #expect(text.contains("secure=false"))
    }

    @Test func percentEncodedPathIsDecodedAndRawKept() throws {
        let router = testRouter()
        router.get("/a b", .sync { .text("raw=\($0.rawPath) path=\($0.path)") })
        let server = try TestServer(router: router)
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("GET /a%20b HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(connection.readResponse())
        #expect(String(decoding: response.body, as: UTF8.self) == "raw=/a%20b path=/a b")
        connection.send("GET /a%zzb HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.readResponse()?.status == 400)
    }

    @Test func brokenQueryReachesHandlerAsFormError() throws {
        // Raw socket: URLSession would re-encode `%zz` as `%25zz`.
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("GET /echo?a=%zz HTTP/1.1\r\nHost: x\r\n\r\n")
        let bad = String(decoding: try #require(connection.readResponse()).body, as: UTF8.self)
        #expect(bad.contains("queryError=malformed percent-encoding"))
        connection.send("GET /echo?a=%e9 HTTP/1.1\r\nHost: x\r\n\r\n")
        let invalid = String(decoding: try #require(connection.readResponse()).body, as: UTF8.self)
        #expect(invalid.contains("queryError=invalid UTF-8"))
    }

    @Test func formBodies() async throws {
        let server = try TestServer(router: testRouter())
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let ok = try await server.fetch("/form", method: "POST", headers: form, body: Data("a=1&b=x+y".utf8))
        #expect(ok.status == 200)
        #expect(String(decoding: ok.body, as: UTF8.self) == "a=1&b=x y bytes=9")
        let broken = try await server.fetch("/form", method: "POST", headers: form, body: Data("a=%zz".utf8))
        #expect(String(decoding: broken.body, as: UTF8.self) == "formError=malformed percent-encoding")
        let badUTF8 = try await server.fetch("/form", method: "POST", headers: form, body: Data("a=%e9".utf8))
        #expect(String(decoding: badUTF8.body, as: UTF8.self) == "formError=invalid UTF-8 after percent-decoding")
        let json = try await server.fetch("/form", method: "POST", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        #expect(json.status == 400)
        #expect(server.isHealthy())
    }

    @Test func notFoundAndMethodNotAllowed() async throws {
        let server = try TestServer(router: testRouter())
        #expect(try await server.fetch("/missing").status == 404)
        let (status, headers, _) = try await server.fetch("/hello", method: "DELETE")
        #expect(status == 405)
        #expect(headers["Allow"] == "GET, HEAD")
    }

    @Test func headDropsBodyKeepsLength() throws {
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(connection.readResponse(head: true))
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "17")
        // The next response on the same connection starts right away: no body bytes were sent.
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let next = try #require(connection.readResponse())
        #expect(next.status == 200)
        #expect(next.body == Array("{\"hello\":\"world\"}".utf8))
    }

    @Test func keepAliveServesSeveralRequests() throws {
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        for index in 0..<5 {
            connection.send("GET /echo?x=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try #require(connection.readResponse())
            #expect(String(decoding: response.body, as: UTF8.self).contains("q:x=\(index)"))
        }
        // Pipelined requests on the same connection.
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /user/bob HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
        #expect(connection.readResponse()?.body == Array("hi bob".utf8))
    }

    @Test func redirectIsNotFollowed() async throws {
        let server = try TestServer(router: testRouter())
        let (status, headers, body) = try await server.fetch("/redirect")
        #expect(status == 303)
        #expect(headers["Location"] == "com.example.app:/cb?code=abc&state=xyz")
        #expect(body.isEmpty)
    }

    @Test func cookiesBothWays() async throws {
        let server = try TestServer(router: testRouter())
        let (_, headers, body) = try await server.fetch("/cookie", headers: ["Cookie": "sid=old; other=1"])
        #expect(String(decoding: body, as: UTF8.self) == "old")
        #expect(headers["Set-Cookie"] == "sid=new; Path=/; Secure; HttpOnly; SameSite=Lax")
    }

    @Test func headerInjectionBecomes500() throws {
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("GET /badheader HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(connection.readResponse())
        #expect(response.status == 500)
        #expect(response.header("Injected") == nil)
    }

    @Test func asyncRouteWithPathParameter() async throws {
        let server = try TestServer(router: testRouter())
        let (status, _, body) = try await server.fetch("/user/ann%20lee")
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "hi ann lee")
    }

    @Test func accessLogHasNoQuery() async throws {
        let entries = LogCollector()
        let server = try TestServer(router: testRouter()) { $0.accessLog = { entries.append($0) } }
        _ = try await server.fetch("/echo?code=secret")
        _ = try await server.fetch("/user/x?token=secret2")
        let logged = entries.all
        #expect(logged.map(\.path) == ["/echo", "/user/x"])
        #expect(logged.map(\.status) == [200, 200])
        #expect(logged.allSatisfy { $0.method == .GET && $0.durationSeconds >= 0 })
    }

    @Test func portZeroAndTwoListeners() throws {
        let configuration = HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:0"), try ListenAddress("127.0.0.1:0")],
                                                    logLibraryErrors: false)
        let server = HTTPServer(configuration: configuration, router: testRouter())
        try server.start()
        defer { server.stop() }
        let ports = server.boundPorts
        #expect(ports.count == 2 && ports.allSatisfy { $0 > 0 } && ports[0] != ports[1])
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
        // A port that is taken cannot be bound again.
        let clash = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:\(ports[0])")],
                                                                     logLibraryErrors: false), router: Router())
        #expect(throws: HTTPServerError.startFailed("127.0.0.1:\(ports[0])")) { try clash.start() }
    }
}

/// Collects access-log entries across threads.
final class LogCollector: Sendable {
    private let entries = Mutex<[AccessLogEntry]>([])
    func append(_ entry: AccessLogEntry) { entries.withLock { $0.append(entry) } }
    var all: [AccessLogEntry] { entries.withLock { $0 } }
}
