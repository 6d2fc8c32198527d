import Foundation
import SignetServer
import SignetTesting
import Testing

/// Health, unknown paths, wrong methods and HEAD against the real route table.
@Suite(.endToEndLimit) struct RoutingEndToEndTests {
    @Test func healthIsOKAndNotCached() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try await HTTPTestClient().get(server.url(Routes.health))
        #expect(response.status == 200)
        #expect(try response.json()["status"] == "ok")
        #expect(response.header("Cache-Control") == "no-store")
    }

    @Test(arguments: ["/nope", "/.well-known/openid-configuration/", "/JWKS.JSON", "/.well-known/"])
    func unknownPathIsA404JSONError(path: String) async throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try await HTTPTestClient().get(server.url(path))
        #expect(response.status == 404)
        #expect(response.mediaType == "application/json")
        #expect(try response.json()["error"] == "not_found")
        #expect(response.header("Cache-Control") == "no-store")
    }

    @Test(arguments: [Routes.health, Routes.jwks, Routes.openIDConfiguration, Routes.oauthAuthorizationServer])
    func postToAGetRouteIs405WithAllow(path: String) async throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try await HTTPTestClient().post(server.url(path), form: [("a", "b")])
        #expect(response.status == 405)
        let allow = try #require(response.header("allow"))
        #expect(allow.contains("GET"))
        #expect(!allow.contains("POST"))
        #expect(try response.json()["error"] == "method_not_allowed")
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = HTTPTestClient()
        let get = try await client.get(server.url(Routes.openIDConfiguration))
        let head = try await client.head(server.url(Routes.openIDConfiguration))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Type") == get.header("Content-Type"))
        // Raw socket: HEAD keeps the Content-Length of the GET body.
        let raw = try await RawHTTPConnection.exchange(port: server.port,
            request: "HEAD \(Routes.openIDConfiguration) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = try #require(raw.response)
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == String(get.body.count))
    }
}
