import Foundation
import SignetHTTP
import SignetMetrics
import SignetServer
import SignetTesting
import Testing

@Suite(.endToEndLimit)
struct MetricsExpositionTests {
    static func sample() -> MetricsRegistry {
        let registry = MetricsRegistry(seriesLimit: 3)
        let requests = registry.counter("signet_test_requests_total", help: "Requests, by route and status.", labels: ["route", "status"])
        requests.labels("/token", "200").increment(by: 5)
        requests.labels("/token", "400").increment()
        requests.labels("/odd \"path\"\\\n", "200").increment()
        let latency = registry.histogram("signet_test_request_duration_seconds", help: "Request latency.", labels: ["route"],
                                         buckets: [0.001, 0.01, 0.1])
        for value in [0.0005, 0.002, 0.05, 3.0] { latency.labels("/token").observe(value) }
        registry.gauge("signet_test_open_connections", help: "Open connections.") { 7 }
        return registry
    }

    @Test func theTextIsExactlyTheFormat() {
        let text = Self.sample().exposition()
        #expect(text == """
            # HELP signet_test_requests_total Requests, by route and status.
            # TYPE signet_test_requests_total counter
            signet_test_requests_total{route="/odd \\"path\\"\\\\\\n",status="200"} 1
            signet_test_requests_total{route="/token",status="200"} 5
            signet_test_requests_total{route="/token",status="400"} 1
            # HELP signet_test_request_duration_seconds Request latency.
            # TYPE signet_test_request_duration_seconds histogram
            signet_test_request_duration_seconds_bucket{route="/token",le="0.001"} 1
            signet_test_request_duration_seconds_bucket{route="/token",le="0.01"} 2
            signet_test_request_duration_seconds_bucket{route="/token",le="0.1"} 3
            signet_test_request_duration_seconds_bucket{route="/token",le="+Inf"} 4
            signet_test_request_duration_seconds_sum{route="/token"} 3.0525
            signet_test_request_duration_seconds_count{route="/token"} 4
            # HELP signet_test_open_connections Open connections.
            # TYPE signet_test_open_connections gauge
            signet_test_open_connections 7

            """)
    }

    @Test func labelCombinationsPastTheLimitAreCountedAsOther() {
        let registry = MetricsRegistry(seriesLimit: 2)
        let family = registry.counter("signet_test_total", help: "x", labels: ["path"])
        for index in 0..<1000 { family.labels("/p\(index)").increment() }
        let lines = registry.exposition().split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["signet_test_total{path=\"/p0\"} 1", "signet_test_total{path=\"/p1\"} 1", "signet_test_total{path=\"other\"} 998"])
    }

    @Test func concurrentUpdatesAreAllCounted() async {
        let registry = MetricsRegistry()
        let family = registry.counter("signet_test_total", help: "x", labels: ["worker"])
        let histogram = registry.histogram("signet_test_seconds", help: "x")
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    for _ in 0..<10_000 {
                        family.labels(String(worker % 4)).increment()
                        histogram.labels().observe(0.003)
                    }
                }
            }
        }
        let total = (0..<4).reduce(UInt64(0)) { $0 + family.labels(String($1)).count }
        #expect(total == 160_000)
        #expect(histogram.labels().count == 160_000)
    }

    /// Threads adding the same new series at once get one series each, and the limit holds while
    /// they race (finding a series takes no lock; only adding one does).
    @Test func seriesAddedConcurrentlyAreMadeOnceAndTheLimitHolds() {
        let registry = MetricsRegistry(seriesLimit: 50)
        let family = registry.counter("signet_test_total", help: "x", labels: ["path", "status"])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            for index in 0..<400 { family.labels("/p\(index % 80)", "200").increment() }
        }
        let lines = registry.exposition().split(separator: "\n").filter { !$0.hasPrefix("#") }
        // 80 paths, 80 increments each: the first 50 added keep theirs, the other 30 count as other.
        #expect(lines.count == 51)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("signet_test_total{path=\"/p") && $0.hasSuffix(",status=\"200\"} 80") })
        #expect(lines.last == "signet_test_total{path=\"other\",status=\"other\"} 2400")
    }

    /// promtool (Prometheus's own linter) accepts the text.
    @Test(.enabled(if: RealPart.prometheus.canRun, RealPart.prometheus.skipComment))
    func promtoolAcceptsIt() throws {
        try RealPart.prometheus.use()
        let result = try Subprocess.runBlocking("/usr/bin/promtool", ["check", "metrics"], stdin: Array(Self.sample().exposition().utf8))
        #expect(result.succeeded, "\(result.stdout)\(result.stderr)")
    }

    /// A real Prometheus scrapes the registry over HTTP (SignetHTTP on 127.0.0.1) and answers a
    /// query with the values the registry holds.
    @Test(.enabled(if: RealPart.prometheus.canRun, RealPart.prometheus.skipComment))
    func aRealPrometheusScrapesIt() async throws {
        try RealPart.prometheus.use()
        let registry = Self.sample()
        let router = Router()
        router.get("/metrics", .sync { _ in
            var response = HTTPResponse.text(registry.exposition())
            response.headers.set("Content-Type", MetricsRegistry.contentType)
            return response
        })
        let server = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:0")], logLibraryErrors: false),
                                router: router)
        try server.start()
        defer { server.stop() }
        let prometheus = try await PrometheusServer.start(scraping: "127.0.0.1:\(server.boundPorts[0])")
        defer { Task { await prometheus.stop() } }
        let value = try await prometheus.waitForValue("signet_test_requests_total{route=\"/token\",status=\"200\"}")
        #expect(value == "5")
        let count = try await prometheus.waitForValue("signet_test_request_duration_seconds_count")
        #expect(count == "4")
    }
}
