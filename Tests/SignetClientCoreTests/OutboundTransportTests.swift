import CSignetOutbound
import Foundation
import Synchronization
@testable import SignetClientCore
import SignetServer
import SignetTesting
import Testing

/// The Linux transport: TLS verification against a real https server (Signet's own, with a
/// self-signed certificate), and the HTTP/1.1 response parser.
@Suite(.endToEndLimit) struct OutboundTransportTests {
    @Test func httpsWithATrustedCertificateForTheAddress() async throws {
        let server = try TestServer(tlsHost: "127.0.0.1")
        defer { server.stop() }
        #expect(server.baseURL.absoluteString.hasPrefix("https://127.0.0.1:"))
        let certificate = try #require(server.configuration.http.tlsCertificateFile)
        let response = try await OutboundHTTP(trustedCertificatesFile: certificate).get(server.url("/.well-known/openid-configuration"))
        #expect(response.status == 200)
        #expect(response.mediaType == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"issuer\":\"https://127.0.0.1:"))
        let posted = try await OutboundHTTP(trustedCertificatesFile: certificate).postForm(server.url("/token"), [("grant_type", "x")])
        #expect(posted.status == 400)
    }

    @Test func untrustedOrMisnamedCertificatesAreRefused() async throws {
        let server = try TestServer(tlsHost: "signet.test")
        defer { server.stop() }
        let certificate = try #require(server.configuration.http.tlsCertificateFile)
        let url = server.url("/healthz")
        // Not in the system's trust store.
        await #expect(throws: OutboundError.transport("the server's certificate is not trusted for this host")) {
            _ = try await OutboundHTTP().get(url)
        }
        // Trusted, but it names signet.test, not 127.0.0.1.
        await #expect(throws: OutboundError.transport("the server's certificate is not trusted for this host")) {
            _ = try await OutboundHTTP(trustedCertificatesFile: certificate).get(url)
        }
        // Plain http to a TLS port is not a response.
        await #expect { _ = try await OutboundHTTP(timeLimit: 2).get(try #require(URL(string: "http://127.0.0.1:\(server.port)/healthz"))) }
            throws: { error in
                guard let error = error as? OutboundError else { return false }
                return error != .redirected
            }
    }

    @Test func unsupportedSchemesAndHeaderInjectionAreRefused() async throws {
        await #expect(throws: OutboundError.transport("unsupported URL scheme")) {
            _ = try await OutboundHTTP().get(try #require(URL(string: "ftp://127.0.0.1/x")))
        }
        await #expect(throws: OutboundError.transport("malformed request header")) {
            _ = try await OutboundHTTP().get(try #require(URL(string: "http://127.0.0.1:1/x")), headers: ["X-A": "1\r\nX-B: 2"])
        }
    }

    @Test func theHostHeaderNamesThePortOnlyWhenItIsNotTheSchemes() throws {
        func host(_ url: String) throws -> String { try OutboundTransport.Target(try #require(URL(string: url))).hostHeader }
        #expect(try host("https://id.example.com/token") == "id.example.com")
        #expect(try host("https://id.example.com:443/token") == "id.example.com")
        #expect(try host("http://id.example.com:80/") == "id.example.com")
        #expect(try host("https://id.example.com:8443/token") == "id.example.com:8443")
        #expect(try host("http://127.0.0.1:443/x") == "127.0.0.1:443")
        #expect(try host("https://[::1]/x") == "[::1]")
        #expect(try host("http://[::1]:8080/x") == "[::1]:8080")
    }

    static func parse(_ text: String, sizeLimit: Int = 1024, method: String = "GET") throws(OutboundError) -> OutboundResponse {
        try OutboundTransport.parse(Array(text.utf8), sizeLimit: sizeLimit, method: method)
    }

    @Test func parsesLengthChunkedAndInformationalResponses() throws {
        let plain = try Self.parse("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        #expect(plain.status == 200 && plain.body == Array("{}".utf8) && plain.mediaType == "application/json")
        let chunked = try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n")
        #expect(String(decoding: chunked.body, as: UTF8.self) == "Wikipedia")
        let informational = try Self.parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\n\r\nbad")
        #expect(informational.status == 400 && informational.body == Array("bad".utf8))
        let repeated = try Self.parse("HTTP/1.1 200 OK\r\nVary: a\r\nvary: b\r\nContent-Length: 0\r\n\r\n")
        #expect(repeated.headers["vary"] == "a, b")
        let untilClose = try Self.parse("HTTP/1.0 200 OK\r\n\r\nall of it")
        #expect(untilClose.body == Array("all of it".utf8))
        #expect(try Self.parse("HTTP/1.1 204 No Content\r\n\r\n").body.isEmpty)
        #expect(try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", method: "HEAD").body.isEmpty)
    }

    @Test func refusesRedirectsOversizeAndBrokenResponses() {
        #expect(throws: OutboundError.redirected) { try Self.parse("HTTP/1.1 302 Found\r\nLocation: https://evil.example\r\nContent-Length: 0\r\n\r\n") }
        #expect(throws: OutboundError.tooLarge) { try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n", sizeLimit: 1000) }
        #expect(throws: OutboundError.tooLarge) {
            try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n" + String(repeating: "a", count: 2048) + "\r\n0\r\n\r\n")
        }
        #expect(throws: OutboundError.tooLarge) { try Self.parse("HTTP/1.0 200 OK\r\n\r\n" + String(repeating: "a", count: 2000)) }
        for broken in ["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
                       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                       "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n", "SMTP 220 hello\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n",
                       "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok",
                       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+2\r\nok\r\n0\r\n\r\n"] {
            #expect(throws: (any Error).self, "\(broken.debugDescription)") { try Self.parse(broken) }
        }
    }
}

/// Where the C transport stops reading (`signet_outbound_response_length`) against what the parser
/// makes of the bytes (the `outbound` fuzz target's property, on the inputs it was written for).
@Suite(.endToEndLimit) struct OutboundFramingTests {
    static func length(_ text: String) -> Int {
        Array(text.utf8).withUnsafeBufferPointer { Int(signet_outbound_response_length($0.baseAddress, $0.count)) }
    }

    @Test func theTransportStopsWhereTheResponseEndsAndNowhereBefore() throws {
        let whole = [
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
            // The bytes of a last chunk inside a chunk's data.
            "HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\na\r\nx\n0\r\n\r\nyzw\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n0\r\nX-Trailer: t\r\n\r\n",
            // Transfer-Encoding in capitals wins over Content-Length, as in the parser.
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: CHUNKED\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "HTTP/1.x204 200 OK\r\nContent-Length: 5\r\n\r\nhello",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
            "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
        ]
        for text in whole {
            #expect(Self.length(text) == text.utf8.count, "\(text.debugDescription)")
            #expect(Self.length(String(decoding: text.utf8.dropLast(), as: UTF8.self)) == 0, "\(text.debugDescription)")
            let bytes = Array(text.utf8)
            let response = try OutboundTransport.parse(bytes, sizeLimit: 1024, method: "GET")
            let extra = try OutboundTransport.parse(bytes + Array("trailing bytes".utf8), sizeLimit: 1024, method: "GET")
            #expect(response.status == extra.status && response.body == extra.body)
        }
        #expect(try OutboundTransport.parse(Array(whole[1].utf8), sizeLimit: 1024, method: "GET").body == Array("x\n0\r\n\r\nyzw".utf8))
        // Only the end of the stream ends these: a Content-Length past a truncating buffer, none at all, a sign.
        for text in ["HTTP/1.1 200 OK\r\nContent-Length:" + String(repeating: " ", count: 34) + "12345\r\n\r\nshort",
                     "HTTP/1.0 200 OK\r\n\r\nuntil close", "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+2\r\nok\r\n0\r\n\r\n"] {
            #expect(Self.length(text) == 0, "\(text.debugDescription)")
        }
    }

    @Test func theParserReadsBytesNotCharacters() throws {
        // U+0600 joins the following space into one Character; the status is still the 204 after the byte 0x20.
        let prepended = "HTTP/1.1\u{600} 204 200 OK\r\nContent-Length: 5\r\n\r\nhello"
        #expect(try OutboundTransport.parse(Array(prepended.utf8), sizeLimit: 1024, method: "GET").status == 204)
        #expect(Self.length(prepended) == prepended.utf8.count - 5)
        // A combining mark after "chunked" does not hide it.
        let marked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\u{301}\r\n\r\n2\r\nok\r\n0\r\n\r\n"
        #expect(try OutboundTransport.parse(Array(marked.utf8), sizeLimit: 1024, method: "GET").body == Array("ok".utf8))
        #expect(Self.length(marked) == marked.utf8.count)
    }

    @Test func aHugeChunkSizeIsRefusedWithoutOverflow() {
        // 1 byte, then a size near Int.max: the sum with the body so far must not trap.
        #expect(throws: OutboundError.transport("malformed chunk")) {
            try OutboundTransport.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n7fffffffffffffff\r\n".utf8),
                                        sizeLimit: 1024, method: "GET")
        }
        #expect(throws: OutboundError.tooLarge) {
            try OutboundTransport.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\nffffffffff\r\n".utf8),
                                        sizeLimit: 1024, method: "GET")
        }
    }
}

/// Public-key pinning on the Linux transport.
@Suite(.endToEndLimit) struct OutboundPinningTests {
    @Test func aPinnedKeyIsAcceptedAndAnyOtherRefused() async throws {
        let server = try TestServer(tlsHost: "127.0.0.1")
        defer { server.stop() }
        let certificate = try #require(server.configuration.http.tlsCertificateFile)
        let pin = try await CertificatePin.bytes(ofCertificate: certificate)
        #expect(pin.count == 32)
        let url = server.url("/healthz")
        let pinned = try await OutboundHTTP(trustedCertificatesFile: certificate, pinnedKeyHashes: [Array(repeating: 1, count: 32), pin]).get(url)
        #expect(pinned.status == 200)
        await #expect(throws: OutboundError.transport("the server's key is not pinned")) {
            _ = try await OutboundHTTP(trustedCertificatesFile: certificate, pinnedKeyHashes: [Array(repeating: 1, count: 32)]).get(url)
        }
        // A pin never replaces verification: the right pin on an untrusted certificate is refused.
        await #expect(throws: OutboundError.transport("the server's certificate is not trusted for this host")) {
            _ = try await OutboundHTTP(pinnedKeyHashes: [pin]).get(url)
        }
    }
}

/// The caller is answered by the deadline even when the transport's thread is stuck where the C
/// code cannot bound it (name resolution): a stand-in exchange that blocks until released.
@Suite(.endToEndLimit) struct OutboundDeadlineTests {
    @Test func aStuckExchangeIsAnsweredWithATimeoutAndItsLateResultIsDropped() async throws {
        let release = DispatchSemaphore(value: 0)
        let state = Mutex((entered: false, returned: false))
        let target = try OutboundTransport.Target(try #require(URL(string: "http://stuck-resolver.invalid/x")))
        let result = await OutboundTransport.run(target: target, request: [], timeLimit: 0.2, maxBytes: 1024,
                                                 trustedCertificatesFile: nil, pins: []) { _, _, _, _, _, _ in
            state.withLock { $0.entered = true }
            _ = release.wait(timeout: .now() + 5)   // without the deadline guard the caller would get this late success
            state.withLock { $0.returned = true }
            return .success(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        #expect(result == .failure(.timeout))
        #expect(state.withLock { $0.entered && !$0.returned })   // answered while the exchange was still stuck
        release.signal()
        // The exchange's late success must not reach the caller a second time (a second resume of
        // the continuation would stop the test process).
        for _ in 0..<200 where !state.withLock({ $0.returned }) { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(state.withLock { $0.returned })
        try await Task.sleep(nanoseconds: 50_000_000)
    }

    @Test func anExchangeThatFinishesInTimeIsAnsweredWithItsOwnResult() async throws {
        let target = try OutboundTransport.Target(try #require(URL(string: "http://127.0.0.1:1/x")))
        let result = await OutboundTransport.run(target: target, request: [], timeLimit: 5, maxBytes: 1024,
                                                 trustedCertificatesFile: nil, pins: []) { _, _, _, _, _, _ in
            .failure(.transport("could not connect"))
        }
        #expect(result == .failure(.transport("could not connect")))
    }
}
