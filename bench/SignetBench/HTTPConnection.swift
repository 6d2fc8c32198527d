import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One keep-alive HTTP/1.1 connection to `127.0.0.1:port` with blocking I/O: the load generator
/// gives each connection its own thread. It sends a whole request with one `send` and reads one
/// response with a `Content-Length` body (Signet always sends one); it reconnects when the server
/// said `Connection: close` or the previous exchange failed. No redirects are followed.
final class HTTPConnection {
    let port: Int
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 65_536)
    /// TCP connections opened so far (1 for a connection that stayed alive throughout).
    private(set) var connects = 0

    init(port: Int) { self.port = port }

    deinit { disconnect() }

    /// Sends `method path` with `headers` and `body`, and reads the response.
    func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: String? = nil) throws(HTTPClientError) -> HTTPClientResponse {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body {
            text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        } else {
            text += "\r\n"
        }
        if fd < 0 { try connect() }
        do {
            try send(Array(text.utf8))
            let response = try readResponse()
            if response.header("connection")?.lowercased() == "close" { disconnect() }
            return response
        } catch {
            disconnect()
            throw error
        }
    }

    func disconnect() {
        if fd >= 0 { close(fd) }
        fd = -1
        buffer.removeAll(keepingCapacity: true)
    }

    private func connect() throws(HTTPClientError) {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw HTTPClientError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        _ = setsockopt(socketFD, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // A stuck server must not hang the benchmark: 10 s per send or receive.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw HTTPClientError("connect to 127.0.0.1:\(port): \(reason)")
        }
        fd = socketFD
        connects += 1
    }

    private func send(_ bytes: [UInt8]) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw HTTPClientError("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads more bytes into `buffer`; throws when the peer closed or the read failed.
    private func fill() throws(HTTPClientError) {
        let received = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard received > 0 else {
            throw HTTPClientError(received == 0 ? "connection closed by the server" : "recv: \(String(cString: strerror(errno)))")
        }
        buffer.append(contentsOf: scratch[0..<received])
    }

    private func readResponse() throws(HTTPClientError) -> HTTPClientResponse {
        // Headers: up to the first CRLFCRLF.
        var headerEnd: Int?
        var searchFrom = 0
        while headerEnd == nil {
            if buffer.count >= 4 {
                var index = max(0, searchFrom - 3)
                while index + 3 < buffer.count {
                    if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                        headerEnd = index
                        break
                    }
                    index += 1
                }
                searchFrom = buffer.count
            }
            if headerEnd == nil {
                guard buffer.count < 64 * 1024 else { throw HTTPClientError("response headers larger than 64 KiB") }
                try fill()
            }
        }
        guard let headerEnd else { throw HTTPClientError("no response headers") }
        let headText = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { throw HTTPClientError("empty response") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw HTTPClientError("bad status line")
        }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        guard let lengthText = headers.first(where: { $0.0 == "content-length" })?.1, let length = Int(lengthText), length >= 0 else {
            throw HTTPClientError("response without Content-Length (status \(status))")
        }
        let bodyStart = headerEnd + 4
        while buffer.count < bodyStart + length { try fill() }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeSubrange(0..<(bodyStart + length))
        return HTTPClientResponse(status: status, headers: headers, body: body)
    }
}

/// A response read by `HTTPConnection`.
struct HTTPClientResponse {
    var status: Int
    /// Header names in lower case, in order.
    var headers: [(String, String)]
    var body: [UInt8]

    /// The first header with this (lower-case) name.
    func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// `name=value` of every `Set-Cookie`, attributes dropped.
    var cookies: [(String, String)] {
        headers.filter { $0.0 == "set-cookie" }.compactMap { header in
            let pair = header.1.split(separator: ";", maxSplits: 1)[0]
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return (String(pair[..<equals]).trimmingCharacters(in: .whitespaces), String(pair[pair.index(after: equals)...]))
        }
    }
}

/// A failed exchange: connection, protocol or unexpected response.
struct HTTPClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
