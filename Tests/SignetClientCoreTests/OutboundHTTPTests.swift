import Foundation
import SignetClientCore
import SignetHTTP
import SignetServer
import Synchronization
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct OutboundHTTPTests {
    @Test func neverFollowsRedirects() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        provider.behaviour.redirectTokenEndpoint = true
        await #expect(throws: OutboundError.redirected) {
            _ = try await OutboundHTTP().postForm(provider.tokenURL, [("grant_type", "authorization_code")])
        }
    }

    @Test func enforcesTheSizeLimit() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        await #expect(throws: OutboundError.tooLarge) { _ = try await OutboundHTTP(sizeLimit: 100).get(provider.jwksURL) }
        let response = try await OutboundHTTP().get(provider.jwksURL)
        #expect(response.status == 200)
        #expect(response.mediaType == "application/json")
    }

    @Test func enforcesTheTimeLimit() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        provider.behaviour.delaySeconds = 2
        await #expect(throws: OutboundError.timeout) { _ = try await OutboundHTTP(timeLimit: 0.3).get(provider.jwksURL) }
    }

    /// Calls to one host run side by side, far beyond URLSession's Linux default of 6: every
    /// request is held by the server until all 24 have arrived (or 8 s pass), and each answer
    /// reports how many were in flight together.
    @Test func manyCallsToOneHostRunAtTheSameTime() async throws {
        let expected = 24
        let inFlight = Mutex((now: 0, peak: 0))
        let router = Router()
        router.get("/held", .async { _ in
            inFlight.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
            for _ in 0..<800 where inFlight.withLock({ $0.peak }) < expected { try? await Task.sleep(for: .milliseconds(10)) }
            let peak = inFlight.withLock { state -> Int in state.now -= 1; return state.peak }
            return .text("\(peak)")
        })
        let port = try FreePort.pick()
        let server = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:\(port)")], threadCount: 2,
                                                                        shutdownGraceSeconds: 1, logLibraryErrors: false),
                                router: router)
        try server.start()
        defer { server.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/held"))
        let http = OutboundHTTP(timeLimit: 20)
        let peaks = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<expected { group.addTask { String(decoding: try await http.get(url).body, as: UTF8.self) } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(peaks.count == expected)
        #expect(inFlight.withLock { $0.peak } == expected)
    }

    @Test func transportErrorsAreTyped() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/x"))
        await #expect { _ = try await OutboundHTTP().get(url) } throws: { error in
            if case .transport = error as? OutboundError { return true }
            return false
        }
    }
}

@Suite(.endToEndLimit) struct OutboundHTTPChallengeTests {
    /// Signet answers invalid_client with 401 and `WWW-Authenticate: Basic`: the client must get
    /// the response, not stall.
    @Test func a401WithAChallengeComesBackAsAResponse() async throws {
        try await TestServer.with { server in
            let client = TokenClient(tokenEndpoint: server.url("/token"), clientID: "nobody",
                                     authentication: .basic(secret: "x"), http: OutboundHTTP())
            await #expect { _ = try await client.refresh("sgr_x") } throws: { error in
                guard case .oauth(let body, let status)? = error as? TokenClientError else { return false }
                return body.error == "invalid_client" && status == 401
            }
        }
    }
}
