import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetServer

/// A real Prometheus (Debian's `prometheus` package) on 127.0.0.1 with a throwaway data folder,
/// scraping one target every second.
public final class PrometheusServer: Sendable {
    /// `http://127.0.0.1:PORT`, its web and query API.
    public var baseURL: String { service.baseURL }
    /// The process and its data folder.
    private let service: HelperService

    private init(service: HelperService) { self.service = service }

    /// Starts Prometheus scraping `target` (`host:port`, path `/metrics`) and waits until it is ready.
    public static func start(scraping target: String, metricsPath: String = "/metrics") async throws -> PrometheusServer {
        try RealPart.prometheus.use()
        let folder = try TemporaryDirectory(prefix: "prometheus")
        let configuration = try folder.write("""
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
            scrape_configs:
              - job_name: signet
                metrics_path: \(metricsPath)
                static_configs:
                  - targets: ["\(target)"]
            """, to: "prometheus.yml")
        do {
            return PrometheusServer(service: try await HelperService.start(readyPath: "/-/ready", seconds: 60, folder: folder) { port in
                try BackgroundProcess("/usr/bin/prometheus", [
                    "--config.file=\(configuration)", "--storage.tsdb.path=\(folder.appending("data"))",
                    "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
                ])
            })
        } catch let failure as HelperService.StartFailure {
            throw TestingError("Prometheus did not become ready: \(failure.stderr)")
        }
    }

    /// Runs an instant query until it returns a sample (at most `seconds`), and returns its value.
    public func waitForValue(_ query: String, seconds: Double = 60) async throws -> String {
        let client = HTTPTestClient(timeoutSeconds: 5)
        var components = URLComponents(string: baseURL + "/api/v1/query")
        components?.queryItems = [URLQueryItem(name: "query", value: query)]
        guard let url = components?.url else { throw TestingError("cannot make a query URL for \(query)") }
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            if let response = try? await client.get(url), response.status == 200,
               let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
               let data = object["data"] as? [String: Any], let results = data["result"] as? [[String: Any]],
               let value = results.first?["value"] as? [Any], value.count == 2, let text = value[1] as? String {
                return text
            } else if let response = try? await client.get(url) {
                last = String(decoding: response.body, as: UTF8.self)
            }
            try? await Task.sleep(nanoseconds: 250_000_000)
        }
        throw TestingError("Prometheus had no sample for \(query) after \(seconds) s; last answer: \(last.prefix(500))")
    }

    /// Stops Prometheus and removes its data.
    public func stop() async { await service.stop() }
}
