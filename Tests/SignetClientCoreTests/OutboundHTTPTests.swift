import Foundation
import SignetClientCore
import SignetTesting
import Testing

@Suite struct OutboundHTTPTests {
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

    @Test func transportErrorsAreTyped() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/x"))
        await #expect { _ = try await OutboundHTTP().get(url) } throws: { error in
            if case .transport = error as? OutboundError { return true }
            return false
        }
    }
}

@Suite struct OutboundHTTPChallengeTests {
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
