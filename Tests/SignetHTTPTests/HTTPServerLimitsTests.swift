import Foundation
import SignetTesting
import Testing
@testable import SignetHTTP

/// Hostile and broken clients: each gets a clear refusal and the server keeps answering.
@Suite(.endToEndLimit) struct HTTPServerLimitsTests {
    @Test func hugeHeaderIsRefused() throws {
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        let filler = String(repeating: "a", count: 1_000_000)
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(filler)\r\n\r\n")
        if let response = connection.readResponse() {
            #expect(response.status == 431)   // libmicrohttpd's answer when headers overflow its pool
        } else {
            // The reset reached us before the response, which is also a refusal; anything else
            // (an open connection waiting for more) is not.
            #expect(connection.waitForClose(), "neither 431 nor a closed connection")
        }
        #expect(server.isHealthy())
    }

    @Test func longURIIsRefused() throws {
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("GET /\(String(repeating: "u", count: 40_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        if let response = connection.readResponse() {
            #expect(response.status == 414)
        } else {
            #expect(connection.waitForClose(), "neither 414 nor a closed connection")
        }
        #expect(server.isHealthy())
    }

    @Test func headerWithinLimitIsAccepted() throws {
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 12_000))\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
    }

    @Test func declaredHugeBodyIsRefusedEarly() throws {
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        // Only the headers are sent: the 413 must come without the body.
        connection.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000000\r\n\r\n")
        let response = try #require(connection.readResponse())
        #expect(response.status == 413)
        #expect(server.isHealthy())
    }

    @Test func bodyAtTheLimitIsAccepted() throws {
        let server = try TestServer(router: testRouter()) { $0.maxBodyBytes = 1000 }
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "b", count: 1000))
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(response.body == Array("1000".utf8))
    }

    @Test func chunkedBodyOverLimitGets413() throws {
        let server = try TestServer(router: testRouter()) { $0.maxBodyBytes = 10_000 }
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("POST /size HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "c", count: 4096)
        for _ in 0..<4 { connection.send("1000\r\n\(chunk)\r\n") }
        connection.send("0\r\n\r\n")
        let response = try #require(connection.readResponse())
        #expect(response.status == 413)
        #expect(server.isHealthy())
    }

    @Test func chunkedBodyWithinLimitIsRead() throws {
        let server = try TestServer(router: testRouter()) { $0.maxBodyBytes = 10_000 }
        let connection = try #require(RawConnection(port: server.port))
        defer { connection.close() }
        connection.send("POST /size HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<2 { connection.send("1000\r\n\(String(repeating: "c", count: 4096))\r\n") }
        connection.send("0\r\n\r\n")
        #expect(connection.readResponse()?.body == Array("8192".utf8))
    }

    @Test(arguments: ["GARBAGE\r\n\r\n", "GET /hello\r\n\r\n", "GET /hello HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
                      "GET /hello HTTP/9.9\r\nHost: x\r\n\r\n", "GET /hello HTTP/1.1\r\n\r\n",
                      "GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", "\u{1}\u{2}\u{3}\r\n\r\n"])
    func malformedRequestIsRefused(raw: String) throws {
        // RFC 9112 §3.2: an HTTP/1.1 request without Host gets 400.
        let server = try TestServer(router: testRouter())
        let connection = try #require(RawConnection(port: server.port, receiveTimeoutSeconds: 5))
        defer { connection.close() }
        connection.send(raw)
        if let response = connection.readResponse() {
            #expect((400...505).contains(response.status), "status \(response.status)")
        } else {
            #expect(connection.waitForClose())
        }
        #expect(server.isHealthy())
    }

    @Test func idleConnectionsDoNotStarveNewOnes() throws {
        let server = try TestServer(router: testRouter()) {
            $0.connectionLimit = 64
            $0.connectionTimeoutSeconds = 2
        }
        var idle: [RawConnection] = []
        defer { idle.forEach { $0.close() } }
        for _ in 0..<200 {
            if let connection = RawConnection(port: server.port, receiveTimeoutSeconds: 5) { idle.append(connection) }
        }
        #expect(idle.count == 200)   // the kernel's backlog accepts them all
        // At the limit MHD stops accepting; the rest wait in the kernel backlog.
        // The idle ones holding slots are cut off by the timeout; a fresh client is then served
        // while all 200 sockets are still open on our side.
        var served = false
        for _ in 0..<40 where !served {
            served = server.isHealthy()
            if !served { usleep(250_000) }
        }
        #expect(served)
        #expect(try #require(idle.first).waitForClose())
    }

    @Test func slowClientIsCutOff() throws {
        let server = try TestServer(router: testRouter()) { $0.connectionTimeoutSeconds = 2 }
        let connection = try #require(RawConnection(port: server.port, receiveTimeoutSeconds: 1))
        defer { connection.close() }
        let request = Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "s", count: 40))\r\n\r\n".utf8)
        var sentAll = true
        var cutOff = false
        for byte in request {
            if !connection.send([byte]) { cutOff = true; sentAll = false; break }
            // Each wait doubles as a one-second pause between bytes; a close shows up as EOF here.
            if connection.waitForClose() { cutOff = true; sentAll = false; break }
        }
        #expect(cutOff)
        #expect(!sentAll)
        #expect(server.isHealthy())
    }
}
