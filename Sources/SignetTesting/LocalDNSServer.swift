import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetServer

/// A real DNS server on 127.0.0.1 for the domain-claim tests: Debian's dnsmasq (package
/// `dnsmasq-base`) in the foreground, authoritative for `zones` from its command line only
/// (no /etc/resolv.conf, no /etc/hosts, no upstream), answering the given TXT records; any other
/// name under a zone is NXDOMAIN, a name outside every zone is REFUSED.
public struct LocalDNSServer: Sendable {
    /// Its port (UDP and TCP, 127.0.0.1).
    public let port: Int
    let process: BackgroundProcess

    /// `127.0.0.1:PORT`, the form of the `domains.resolver` setting.
    public var address: String { "127.0.0.1:\(port)" }

    /// The dnsmasq binary.
    public static let executable = "/usr/sbin/dnsmasq"

    /// Starts dnsmasq serving `records` (name → value) for `zones`, on a free port; waits (at
    /// most 20 s) for its "started" line. A port taken meanwhile is tried again, twice at most.
    /// `port`: that port only (a server configured with it before the records were known).
    public static func start(zones: [String], records: [(name: String, value: String)], port fixed: Int? = nil) async throws -> LocalDNSServer {
        try RealPart.dnsmasq.use()
        var lastError = ""
        for _ in 0..<(fixed == nil ? 3 : 1) {
            let port = try fixed ?? FreePort.pick()
            var arguments = ["--no-daemon", "--conf-file=/dev/null", "--no-resolv", "--no-hosts", "--listen-address=127.0.0.1",
                             "--port=\(port)", "--bind-interfaces", "--pid-file=", "--log-facility=-"]
            if getuid() == 0 { arguments.append("--user=root") }
            arguments += zones.map { "--local=/\($0)/" }
            // No shell: the value goes as it is (a comma would split it into two strings).
            arguments += records.map { "--txt-record=\($0.name),\($0.value)" }
            let process = try BackgroundProcess(executable, arguments)
            _ = await Polling.wait(seconds: 20) { process.stderr.contains("started, version") || !process.isRunning }
            if process.isRunning && process.stderr.contains("started, version") {
                return LocalDNSServer(port: port, process: process)
            }
            let result = await process.stop(signal: SIGKILL)
            lastError = String(result.stderr.suffix(1000))
            guard lastError.lowercased().contains("address already in use") else { break }
        }
        throw TestingError("dnsmasq did not start: \(lastError)")
    }

    /// Stops dnsmasq.
    public func stop() async { _ = await process.stop(signal: SIGTERM) }
}
