import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetServer

/// A real Prometheus (Debian's `prometheus` package) on 127.0.0.1 with a throwaway data folder,
/// scraping one target every second.
public final class PrometheusServer: Sendable {
    /// `http://127.0.0.1:PORT`, its web and query API.
    public let baseURL: String
    private let process: BackgroundProcess
    private let folder: TemporaryDirectory

    private init(baseURL: String, process: BackgroundProcess, folder: TemporaryDirectory) {
        self.baseURL = baseURL
        self.process = process
        self.folder = folder
    }

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
        var failure = ""
        for _ in 0..<3 {
            let port = try FreePort.pick()
            let process = try BackgroundProcess("/usr/bin/prometheus", [
                "--config.file=\(configuration)", "--storage.tsdb.path=\(folder.appending("data"))",
                "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
            ])
            let baseURL = "http://127.0.0.1:\(port)"
            let client = HTTPTestClient(timeoutSeconds: 5)
            guard let ready = URL(string: baseURL + "/-/ready") else { throw TestingError("bad port \(port)") }
            var isReady = false
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning && Date() < deadline {
                if let response = try? await client.get(ready), response.status == 200 { isReady = true; break }
                try? await Task.sleep(nanoseconds: 100_000_000)
            }
            if isReady { return PrometheusServer(baseURL: baseURL, process: process, folder: folder) }
            let result = await process.stop(signal: SIGKILL)
            failure = String(result.stderr.suffix(2000))
            guard failure.contains("address already in use") else { break }
        }
        folder.remove()
        throw TestingError("Prometheus did not become ready: \(failure)")
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
    public func stop() async {
        await process.stop()
        folder.remove()
    }
}
