import Foundation
import SignetClientCore
import SignetCore
import SignetHTTP
import SignetServer
import SignetTesting
import Synchronization
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

    @Test func aKeyRemovedUpstreamStopsVerifyingOnceMaxAgeHasPassed() async throws {
        let upstream = try KeySetServer(cacheControl: "public, max-age=120")
        defer { upstream.stop() }
        let clock = ManualClock(Date())
        let cache = JWKSCache(jwksURI: upstream.url, http: OutboundHTTP(), clock: { clock.now })
        _ = try await cache.keys(for: "mock-rs-1")
        #expect(upstream.fetches == 1)
        #expect(await cache.cacheExpiry == clock.now.addingTimeInterval(120))

        try upstream.provider.rotateKeys()   // mock-rs-1 is no longer published
        clock.advance(by: 119)
        _ = try await cache.keys(for: "mock-rs-1")
        #expect(upstream.fetches == 1, "fresh for max-age")
        clock.advance(by: 1)
        await #expect(throws: KeySourceError.unknownKeyID) { try await cache.keys(for: "mock-rs-1") }
        #expect(upstream.fetches == 2, "expired: fetched again, and the removed key is gone")
        _ = try await cache.keys(for: "mock-rs-2")
        #expect(upstream.fetches == 2)
    }

    @Test(arguments: [("public, max-age=5", 60.0), ("max-age=999999999", 86_400), (nil, 3600), ("no-store", 60),
                      ("private, max-age=600, must-revalidate", 600)])
    func maxAgeIsHonouredWithinBounds(cacheControl: String?, lifetime: TimeInterval) async throws {
        let upstream = try KeySetServer(cacheControl: cacheControl)
        defer { upstream.stop() }
        let clock = ManualClock(Date())
        let cache = JWKSCache(jwksURI: upstream.url, http: OutboundHTTP(), clock: { clock.now })
        _ = try await cache.keys(for: "mock-rs-1")
        #expect(await cache.cacheExpiry == clock.now.addingTimeInterval(lifetime))
    }

    @Test func aFailedFirstFetchIsReportedAsUnavailableNotAsAnUnknownKey() async throws {
        let upstream = try KeySetServer(cacheControl: "max-age=300")
        defer { upstream.stop() }
        upstream.failing(true)
        let clock = ManualClock(Date())
        let cache = JWKSCache(jwksURI: upstream.url, http: OutboundHTTP(), clock: { clock.now })
        await #expect(throws: KeySourceError.unavailable(.badStatus(503))) { try await cache.keys(for: "mock-rs-1") }
        // Within the refetch interval: no new fetch, and still the fetch's error, not the token's.
        await #expect(throws: KeySourceError.unavailable(.badStatus(503))) { try await cache.keys(for: "mock-rs-1") }
        await #expect(throws: KeySourceError.unavailable(.badStatus(503))) { try await cache.soleKey(refetch: false) }
        #expect(upstream.fetches == 1, "the rate limit holds while the provider is down")

        upstream.failing(false)
        clock.advance(by: 60)
        _ = try await cache.keys(for: "mock-rs-1")
        #expect(upstream.fetches == 2)
    }

    @Test func anExpiredSetIsKeptWhileTheProviderIsDown() async throws {
        let upstream = try KeySetServer(cacheControl: "max-age=60")
        defer { upstream.stop() }
        let clock = ManualClock(Date())
        let cache = JWKSCache(jwksURI: upstream.url, http: OutboundHTTP(), clock: { clock.now })
        _ = try await cache.keys(for: "mock-rs-1")
        upstream.failing(true)
        clock.advance(by: 61)
        _ = try await cache.keys(for: "mock-rs-1")   // the refetch failed; the cached key still verifies
        #expect(upstream.fetches == 2)
        _ = try await cache.keys(for: "mock-rs-1")
        #expect(upstream.fetches == 2, "the next try waits minimumRefetchInterval")
        upstream.failing(false)
        try upstream.provider.rotateKeys()
        clock.advance(by: 60)
        await #expect(throws: KeySourceError.unknownKeyID) { try await cache.keys(for: "mock-rs-1") }
        #expect(upstream.fetches == 3)
    }
}

/// A real HTTP server on loopback publishing a mock provider's key set with a chosen
/// `Cache-Control`, counting fetches, and able to fail them (503).
final class KeySetServer: Sendable {
    let provider: MockProvider
    let url: URL
    private let server: HTTPServer
    private let state = FetchState()

    init(cacheControl: String?) throws {
        provider = try MockProvider(flavor: .google)
        let port = try FreePort.pick()
        url = try #require(URL(string: "http://127.0.0.1:\(port)/jwks"))
        let router = Router()
        let provider = self.provider
        let state = self.state
        router.get("/jwks", .sync { _ in
            let failing = state.value.withLock { value -> Bool in
                value.fetches += 1
                return value.failing
            }
            if failing { return .text("unavailable\n", status: 503) }
            var response = HTTPResponse.json(provider.jwks().jsonValue.serialized())
            if let cacheControl { response.headers.set("Cache-Control", cacheControl) }
            return response
        })
        server = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:\(port)")], threadCount: 1),
                            router: router)
        try server.start()
    }

    var fetches: Int { state.value.withLock { $0.fetches } }
    func failing(_ fail: Bool) { state.value.withLock { $0.failing = fail } }

    func stop() {
        server.stop()
        provider.stop()
    }
}

/// The fetch count and the failure switch, shared with the route.
final class FetchState: Sendable {
    let value = Mutex((fetches: 0, failing: false))
}
