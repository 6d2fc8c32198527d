import Foundation
import SignetClientCore
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct DiscoveryClientTests {
    @Test func fetchesAndChecksTheIssuerExactly() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        let metadata = try await DiscoveryClient.fetch(issuer: provider.issuer, http: OutboundHTTP())
        #expect(metadata.jwksURI == provider.jwksURL)
        #expect(metadata.tokenEndpoint == provider.tokenURL)
        await #expect(throws: DiscoveryError.issuerMismatch) {
            _ = try await DiscoveryClient.fetch(issuer: provider.issuer + "/", discoveryURL: provider.discoveryURL, http: OutboundHTTP())
        }
        provider.behaviour.wrongDiscoveryIssuer = true
        await #expect(throws: DiscoveryError.issuerMismatch) {
            _ = try await DiscoveryClient.fetch(issuer: provider.issuer, http: OutboundHTTP())
        }
        provider.behaviour.wrongDiscoveryIssuer = false
        provider.behaviour.malformedJSON = true
        await #expect(throws: DiscoveryError.malformedDocument) {
            _ = try await DiscoveryClient.fetch(issuer: provider.issuer, http: OutboundHTTP())
        }
    }

    @Test func githubHasNoDiscovery() async throws {
        let provider = try MockProvider(flavor: .github)
        defer { provider.stop() }
        await #expect(throws: DiscoveryError.transport(.badStatus(404))) {
            _ = try await DiscoveryClient.fetch(issuer: provider.issuer, http: OutboundHTTP())
        }
    }
}
