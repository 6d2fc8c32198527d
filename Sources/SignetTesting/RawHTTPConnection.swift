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
    /// The socket; -1 once closed (so it is closed exactly once).
    private var fd: Int32
    private let timeoutMilliseconds: Int32
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
        timeoutMilliseconds = Int32(clamping: timeoutSeconds * 1000)
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
            let failure = errno
            // A class whose stored properties are all set runs its deinit when its init throws:
            // close here and mark the descriptor gone, or deinit closes the same number again,
            // by then possibly another thread's socket (a server's listen socket or epoll set).
            Glibc.close(fd)
            fd = -1
            throw TestingError("cannot connect to \(host):\(port) (errno \(failure))")
        }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

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

    /// Sends bytes until they are all out or the peer answers (or closes) first, as an HTTP client
    /// does with a request body: a server may refuse a request from its head alone (413) and stop
    /// reading. Returns false if it stopped early.
    @discardableResult
    public func sendUntilAnswered(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN | POLLOUT), revents: 0)
            guard poll(&descriptor, 1, timeoutMilliseconds) > 0 else { return false }
            if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { return false }
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, min($0.count, 65_536), Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
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
        let head: (status: Int, text: String)
        switch readHead() {
        case .success(let value): head = value
        case .failure(let ended): return ended.outcome
        }
        let partial = RawHTTPResponse(status: head.status, head: head.text, body: [])
        let length = isHead ? 0 : Int(partial.header("Content-Length") ?? "0") ?? 0
        _ = fill(upTo: length)
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(body.count)
        return .response(RawHTTPResponse(status: head.status, head: head.text, body: body))
    }

    /// Reads the final response of a `Connection: close` exchange as an HTTP client does:
    /// interim 1xx responses are skipped, and the body is read by `Transfer-Encoding: chunked`,
    /// by `Content-Length`, or up to the close (RFC 9112 §6.3); none for HEAD, 204 and 304.
    public func readFinalResponse(isHead: Bool = false) -> Outcome {
        while true {
            let head: (status: Int, text: String)
            switch readHead() {
            case .success(let value): head = value
            case .failure(let ended): return ended.outcome
            }
            if (100..<200).contains(head.status) { continue }
            let partial = RawHTTPResponse(status: head.status, head: head.text, body: [])
            var body: [UInt8] = []
            if isHead || head.status == 204 || head.status == 304 {
                body = []
            } else if partial.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
                while case .ok = fill() {}
                guard let decoded = Self.dechunk(buffer) else { return .closed }
                body = decoded
                buffer.removeAll()
            } else if let declared = partial.header("Content-Length") {
                guard let length = Int(declared), length >= 0 else { return .closed }
                guard fill(upTo: length) else { return .closed }
                body = Array(buffer.prefix(length))
                buffer.removeFirst(length)
            } else {
                while case .ok = fill() {}
                body = buffer
                buffer.removeAll()
            }
            return .response(RawHTTPResponse(status: head.status, head: head.text, body: body))
        }
    }

    /// True when bytes (or the peer's close) are there to read within `milliseconds`.
    public func waitReadable(milliseconds: Int32) -> Bool {
        if !buffer.isEmpty { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Reads up to the end of the next head and returns its status and text (without the blank line).
    private func readHead() -> Result<(status: Int, text: String), OutcomeError> {
        var searched = 0
        while true {
            if buffer.count >= 4 {
                var index = max(0, searched - 3)
                while index + 3 < buffer.count {
                    if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                        let text = String(decoding: buffer[0..<index], as: UTF8.self)
                        buffer.removeFirst(index + 4)
                        let parts = (text.split(separator: "\r\n").first ?? "").split(separator: " ")
                        guard parts.count >= 2, let status = Int(parts[1]) else { return .failure(OutcomeError(.closed)) }
                        return .success((status, text))
                    }
                    index += 1
                }
                searched = buffer.count
            }
            switch fill() {
            case .ok: continue
            case .closed: return .failure(OutcomeError(.closed))
            case .timedOut: return .failure(OutcomeError(.timedOut))
            }
        }
    }

    /// An `Outcome` carried through `Result`.
    private struct OutcomeError: Error {
        let outcome: Outcome
        init(_ outcome: Outcome) { self.outcome = outcome }
    }

    /// Reads until the buffer holds `count` bytes; false if the connection ended first.
    private func fill(upTo count: Int) -> Bool {
        while buffer.count < count {
            guard case .ok = fill() else { return false }
        }
        return true
    }

    /// Decodes a complete chunked body (RFC 9112 §7.1), trailers ignored; nil if malformed or cut.
    static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else {
                return nil
            }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else { return nil }
            if size == 0 { return body }
            let start = lineEnd + 2
            guard start + size + 2 <= bytes.count else { return nil }
            body.append(contentsOf: bytes[start..<(start + size)])
            index = start + size + 2
        }
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
