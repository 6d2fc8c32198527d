import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SignetHTTP

/// A server on 127.0.0.1 port 0 for one test; stopped when the test is done.
final class TestServer: Sendable {
    let server: HTTPServer
    let port: Int
    let host: String

    init(router: Router, host: String = "127.0.0.1",
         configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        let listen = try ListenAddress(host.contains(":") ? "[\(host)]:0" : "\(host):0")
        var configuration = HTTPServerConfiguration(listen: [listen], threadCount: 2, logLibraryErrors: false)
        configure(&configuration)
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        port = server.boundPorts.first ?? 0
        self.host = host
    }

    var base: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    func url(_ path: String) -> URL { URL(string: base + path)! }

    /// One request through an ephemeral URLSession that never follows redirects.
    func fetch(_ path: String, method: String = "GET", headers: [String: String] = [:],
               body: Data? = nil) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await NoRedirectSession.shared.session.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields { headers[name] = value }
        return (http.statusCode, headers, data)
    }

    /// Whether a fresh raw-socket GET of `path` gets `expected` back.
    func isHealthy(path: String = "/hello", expected: Int = 200) -> Bool {
        guard let connection = RawConnection(port: port, host: host) else { return false }
        defer { connection.close() }
        connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        return connection.readResponse()?.status == expected
    }

    deinit { server.stop() }
}

/// An ephemeral session whose delegate refuses every redirect (TOOLCHAIN-NOTES §7: only a
/// session-level delegate works on Linux).
final class NoRedirectSession: NSObject, URLSessionTaskDelegate, Sendable {
    static let shared = NoRedirectSession()
    let session: URLSession

    override init() {
        let delegate = NoRedirectDelegate()
        session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
    }
}

final class NoRedirectDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

/// A plain blocking TCP socket for malformed and slow requests.
final class RawConnection: @unchecked Sendable {
    struct Response {
        let status: Int
        let head: String
        let body: [UInt8]
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    init?(port: Int, host: String = "127.0.0.1", receiveTimeoutSeconds: Int = 10) {
        let ipv6 = host.contains(":")
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else { Glibc.close(fd); return nil }
    }

    /// Sends everything; false if the peer closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads more bytes into the buffer; false on close, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response (headers, then `Content-Length` bytes unless `head`); nil if the
    /// connection closed or timed out first.
    func readResponse(head isHead: Bool = false) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            if buffer.count >= 4 {
                for index in 0...(buffer.count - 4) where Array(buffer[index..<index + 4]) == separator { end = index; break }
            }
            if end == nil, !fill() { return nil }
        }
        guard let end else { return nil }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var response = Response(status: status, head: head, body: [])
        let length = isHead ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length { if !fill() { return nil } }
        response = Response(status: status, head: head, body: Array(buffer[0..<length]))
        buffer.removeFirst(length)
        return response
    }

    /// True if the peer closes (EOF or reset) before the receive timeout, discarding any data.
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    func close() { Glibc.close(fd) }
}
