import Foundation
import SignetHTTP
import SignetJOSE
@testable import SignetServer
import SignetTesting
import Testing

/// Request ids: one on every response (`X-Request-Id`) and on every log line of its request; an
/// incoming one is kept only from a trusted proxy and only when short and plain.
@Suite(.endToEndLimit) struct RequestIDEndToEndTests {
    static func isFresh(_ value: String?) -> Bool {
        guard let value else { return false }
        return value.utf8.count == 24 && value.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Without trusted proxies, every response (a document, a 404, a refused token request)
    /// gets a fresh id, whatever the caller sent.
    @Test func everyResponseHasAFreshIdAndAnIncomingOneIsIgnoredFromAnyPeer() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let http = HTTPTestClient()
        let discovery = try await http.get(server.url("/.well-known/openid-configuration"), headers: ["X-Request-Id": "trace-abc"])
        #expect(discovery.status == 200)
        #expect(Self.isFresh(discovery.header("X-Request-Id")), "\(discovery.header("X-Request-Id") ?? "none")")
        let missing = try await http.get(server.url("/no-such-page"))
        #expect(missing.status == 404 && Self.isFresh(missing.header("X-Request-Id")))
        let refused = try await http.post(server.url(Routes.token), form: [("grant_type", "password")])
        #expect(refused.status == 400 && Self.isFresh(refused.header("X-Request-Id")))
        #expect(Set([discovery, missing, refused].compactMap { $0.header("X-Request-Id") }).count == 3)
        // A request refused before routing (no Host) gets one too.
        let raw = try await RawHTTPConnection.exchange(port: server.port, request: Array("GET / HTTP/1.1\r\n\r\n".utf8))
        guard case .response(let bare) = raw else { Issue.record("\(raw)"); return }
        #expect(bare.status == 400 && Self.isFresh(bare.header("X-Request-Id")))
    }

    /// The real binary behind a trusted proxy (127.0.0.1), with request lines on: a plain
    /// incoming id is kept, a long or odd one replaced; each request line on standard error is a
    /// JSON object carrying the id its response had, and every line of the log is JSON.
    @Test func aTrustedProxysIdIsKeptAndEveryLogLineIsJSONWithTheId() async throws {
        let folder = try TemporaryDirectory(prefix: "request-id")
        defer { folder.remove() }
        let config: JSONValue = ["log": ["requests": true], "http": ["trusted_proxies": ["127.0.0.1"]]]
        let path = try folder.write(String(decoding: config.serialized(), as: UTF8.self), to: "signet.json")
        let signet = try await TestServer.launchBinary(arguments: ["--config", path], dataDirectory: folder.appending("data"))
        let http = HTTPTestClient()
        var seen: [(path: String, id: String)] = []
        do {
            let kept = try await http.get(signet.url("/.well-known/openid-configuration"),
                                          headers: ["X-Request-Id": "edge-7f3a.b_c:9-1", "X-Forwarded-For": "198.51.100.4"])
            #expect(kept.header("X-Request-Id") == "edge-7f3a.b_c:9-1")
            seen.append(("/.well-known/openid-configuration", "edge-7f3a.b_c:9-1"))
            for (name, value) in [("long", String(repeating: "a", count: 65)), ("odd", "a b"), ("quote", "a\"b"), ("empty", "")] {
                let response = try await http.get(signet.url("/jwks-\(name)"), headers: ["X-Request-Id": value])
                #expect(response.status == 404)
                let id = try #require(response.header("X-Request-Id"))
                #expect(Self.isFresh(id), "\(name): \(id)")
                seen.append(("/jwks-\(name)", id))
            }
        } catch {
            _ = await signet.stop()
            throw error
        }
        let stopped = await signet.stop()
        let lines = stopped.result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count >= seen.count)
        var requestLines: [String: [String: JSONValue]] = [:]
        for line in lines {
            guard let object = try? JSONValue.parse(line).objectValue else {
                Issue.record("not a JSON line: \(line)")
                continue
            }
            #expect(object["time"]?.stringValue != nil && object["level"]?.stringValue != nil && object["msg"]?.stringValue != nil)
            if let path = object["path"]?.stringValue { requestLines[path] = object }
        }
        for (path, id) in seen {
            let line = try #require(requestLines[path], "no request line for \(path)")
            #expect(line["request_id"]?.stringValue == id, "\(path)")
            #expect(line["method"]?.stringValue == "GET" && line["level"]?.stringValue == "info")
        }
        #expect(requestLines["/.well-known/openid-configuration"]?["address"]?.stringValue == "198.51.100.4")
        #expect(requestLines["/.well-known/openid-configuration"]?["status"]?.intValue == 200)
    }

    /// `logging.format` text and `logging.level`: the line shape and the filter.
    @Test func textFormatAndLevelFilter() {
        defer { Log.configure(level: .info, format: .json) }
        Log.configure(level: .warning, format: .text)
        let date = Date(timeIntervalSince1970: 1_764_547_200)
        #expect(Log.line(.info, "hidden", requestID: nil, now: date) == nil)
        #expect(Log.line(.warning, "slow upstream", requestID: "r-1", now: date) == "2025-12-01T00:00:00.000Z warning [r-1] slow upstream")
        #expect(Log.line(.error, "x", requestID: nil, now: date) == "2025-12-01T00:00:00.000Z error x")
        Log.configure(level: .debug, format: .json)
        #expect(Log.line(.debug, "a \"b\"\n\u{1}", requestID: "r-2", now: date)
                == #"{"time":"2025-12-01T00:00:00.000Z","level":"debug","msg":"a \"b\"\n\u0001","request_id":"r-2"}"#)
    }
}
