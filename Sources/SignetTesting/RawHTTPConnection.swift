import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection for requests no HTTP library would send: malformed request lines,
/// huge headers, lying `Content-Length`s, raw non-UTF-8 bytes.
///
/// Its methods block (with socket timeouts); from async tests use `exchange(…)`, which runs on a
/// thread of its own. Sends never raise SIGPIPE.
public final class RawHTTPConnection: @unchecked Sendable {
    // One test drives one connection; `buffer` is not shared between threads.
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// How a raw exchange ended.
    public enum Outcome: Sendable, CustomStringConvertible {
        /// The server answered.
        case response(RawHTTPResponse)
        /// The server closed (or reset) the connection without a complete response.
        case closed
        /// Nothing came back before the receive timeout.
        case timedOut

        /// The response, if there was one.
        public var response: RawHTTPResponse? {
            if case .response(let response) = self { return response }
            return nil
        }

        /// True for a 4xx response, a 505 (HTTP version not supported) or a closed connection:
        /// the refusals a bad request may get.
        public var isRefusal: Bool {
            switch self {
            case .response(let response): return (400...499).contains(response.status) || response.status == 505
            case .closed: return true
            case .timedOut: return false
            }
        }

        /// `response: …`, `closed` or `timed out`.
        public var description: String {
            switch self {
            case .response(let response): return "response: \(response)"
            case .closed: return "closed"
            case .timedOut: return "timed out"
            }
        }
    }

    /// Connects to `host:port` (IPv4 or IPv6 literal).
    public init(host: String = "127.0.0.1", port: Int, timeoutSeconds: Int = 10) throws {
        _ = Subprocess.sigpipeIgnored
        let ipv6 = host.contains(":")
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestingError("socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = Self.connect(fd, to: address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = Self.connect(fd, to: address)
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw TestingError("cannot connect to \(host):\(port) (errno \(errno))")
        }
    }

    deinit { Glibc.close(fd) }

    /// `connect(2)` to a `sockaddr_in` or `sockaddr_in6`.
    private static func connect<Address>(_ fd: Int32, to address: Address) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    /// Sends bytes; returns false if the peer stopped accepting them (closed, reset, or timed out).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Sends UTF-8 text.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads one response (head, then `Content-Length` bytes of body; none for HEAD).
    public func readResponse(isHead: Bool = false) -> Outcome {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            if buffer.count >= 4 {
                for index in 0...(buffer.count - 4) where Array(buffer[index..<(index + 4)]) == terminator {
                    end = index
                    break
                }
            }
            if end == nil {
                switch fill() {
                case .ok: continue
                case .closed: return .closed
                case .timedOut: return .timedOut
                }
            }
        }
        guard let end else { return .closed }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        let parts = (head.split(separator: "\r\n").first ?? "").split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return .closed }
        let partial = RawHTTPResponse(status: status, head: head, body: [])
        let length = isHead ? 0 : Int(partial.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length {
            if case .ok = fill() { continue }
            break
        }
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(body.count)
        return .response(RawHTTPResponse(status: status, head: head, body: body))
    }

    /// Waits for the peer to close; true if it did (EOF or reset) before the receive timeout.
    public func waitForClose() -> Bool {
        while true {
            switch fill() {
            case .ok: buffer.removeAll()
            case .closed: return true
            case .timedOut: return false
            }
        }
    }

    private enum Fill { case ok, closed, timedOut }

    private func fill() -> Fill {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return .ok
        }
        if count == 0 { return .closed }
        return (errno == EAGAIN || errno == EWOULDBLOCK) ? .timedOut : .closed
    }

    /// Connects, sends `request`, reads one response: all on a thread of its own.
    public static func exchange(host: String = "127.0.0.1", port: Int, request: [UInt8],
                                timeoutSeconds: Int = 10) async throws -> Outcome {
        try await Blocking.run {
            let connection = try RawHTTPConnection(host: host, port: port, timeoutSeconds: timeoutSeconds)
            connection.send(request)   // a refusal mid-send still leaves a response to read
            return connection.readResponse(isHead: request.starts(with: Array("HEAD ".utf8)))
        }
    }

    /// `exchange` with a text request.
    public static func exchange(host: String = "127.0.0.1", port: Int, request: String,
                                timeoutSeconds: Int = 10) async throws -> Outcome {
        try await exchange(host: host, port: port, request: Array(request.utf8), timeoutSeconds: timeoutSeconds)
    }
}
