import Foundation
import SignetClientCore
import SignetCore
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct JWKSCacheTests {
    @Test func cachesAndRefetchesAtMostOncePerIntervalForUnknownKeyIDs() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        let clock = ManualClock(Date())
        let cache = JWKSCache(jwksURI: provider.jwksURL, http: OutboundHTTP(), minimumRefetchInterval: 60, clock: { clock.now })
        _ = try await cache.keys(for: "mock-rs-1")
        _ = try await cache.keys(for: "mock-es-1")
        #expect(provider.requestCount("/jwks") == 1)

        // Unknown kid within the interval: refused without a fetch.
        await #expect(throws: KeySourceError.unknownKeyID) { try await cache.keys(for: "nope") }
        #expect(provider.requestCount("/jwks") == 1)

        // After rotation and the interval: one refetch finds the new key; the old one is gone.
        try provider.rotateKeys()
        clock.advance(by: 61)
        _ = try await cache.keys(for: "mock-rs-2")
        #expect(provider.requestCount("/jwks") == 2)
        await #expect(throws: KeySourceError.unknownKeyID) { try await cache.keys(for: "mock-rs-1") }
        #expect(provider.requestCount("/jwks") == 2)
    }

    @Test func malformedOrUnreachableKeySetsAreErrors() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        provider.behaviour.malformedJSON = true
        let cache = JWKSCache(jwksURI: provider.jwksURL, http: OutboundHTTP())
        await #expect(throws: KeySourceError.invalidKeySet(.malformedJSON)) { try await cache.keys(for: "mock-rs-1") }
    }
}
