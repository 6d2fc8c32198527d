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
    /// The longest one send or receive may block, in seconds.
    let timeoutSeconds: Int
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 65_536)
    /// TCP connections opened so far (1 for a connection that stayed alive throughout).
    private(set) var connects = 0

    /// A connection to `127.0.0.1:port`; a send or receive that blocks longer than
    /// `timeoutSeconds` fails (a stuck server must not hang the benchmark).
    init(port: Int, timeoutSeconds: Int = 10) {
        self.port = port
        self.timeoutSeconds = timeoutSeconds
    }

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
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
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
        // Headers: up to the first CRLFCRLF. Byte-level parsing throughout: Foundation string
        // calls would make the generator take CPU from the server it shares the machine with.
        var headerEnd: Int?
        var searchFrom = 0
        while true {
            if let found = Self.find([13, 10, 13, 10], in: buffer, from: max(0, searchFrom - 3)) {
                headerEnd = found
                break
            }
            searchFrom = buffer.count
            guard buffer.count < 64 * 1024 else { throw HTTPClientError("response headers larger than 64 KiB") }
            try fill()
        }
        guard let headerEnd else { throw HTTPClientError("no response headers") }
        // "HTTP/1.1 200 OK"
        guard headerEnd >= 12, buffer[0..<7].elementsEqual("HTTP/1.".utf8), buffer[8] == 32,
              let status = Int(String(decoding: buffer[9..<12], as: UTF8.self)) else {
            throw HTTPClientError("bad status line")
        }
        var headers: [(String, String)] = []
        var contentLength: Int?
        var lineStart = (Self.find([13, 10], in: buffer, from: 0) ?? headerEnd) + 2
        while lineStart < headerEnd {
            let lineEnd = Self.find([13, 10], in: buffer, from: lineStart).map { min($0, headerEnd) } ?? headerEnd
            if let colon = buffer[lineStart..<lineEnd].firstIndex(of: 58) {
                let name = String(decoding: buffer[lineStart..<colon].map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
                var valueStart = colon + 1
                while valueStart < lineEnd && (buffer[valueStart] == 32 || buffer[valueStart] == 9) { valueStart += 1 }
                var valueEnd = lineEnd
                while valueEnd > valueStart && (buffer[valueEnd - 1] == 32 || buffer[valueEnd - 1] == 9) { valueEnd -= 1 }
                let value = String(decoding: buffer[valueStart..<valueEnd], as: UTF8.self)
                if name == "content-length" { contentLength = Int(value) }
                headers.append((name, value))
            }
            lineStart = lineEnd + 2
        }
        guard let length = contentLength, length >= 0 else {
            throw HTTPClientError("response without Content-Length (status \(status))")
        }
        let bodyStart = headerEnd + 4
        while buffer.count < bodyStart + length { try fill() }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeSubrange(0..<(bodyStart + length))
        return HTTPClientResponse(status: status, headers: headers, body: body)
    }

    /// The index of the first occurrence of `needle` in `haystack` at or after `from`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, from >= 0, haystack.count - from >= needle.count else { return nil }
        var index = from
        let last = haystack.count - needle.count
        while index <= last {
            guard let hit = haystack[index...last].firstIndex(of: first) else { return nil }
            var matched = true
            for offset in 1..<needle.count where haystack[hit + offset] != needle[offset] {
                matched = false
                break
            }
            if matched { return hit }
            index = hit + 1
        }
        return nil
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

    /// The string value of `"key"` in a flat JSON object body; nil when absent or not a plain
    /// string (the values read here are tokens: base64url, never escaped).
    func jsonString(_ key: String) -> String? {
        guard let keyStart = HTTPConnection.find(Array("\"\(key)\"".utf8), in: body, from: 0) else { return nil }
        var index = keyStart + key.utf8.count + 2
        while index < body.count && (body[index] == 32 || body[index] == 58) { index += 1 }
        guard index < body.count, body[index] == 34 else { return nil }
        let start = index + 1
        guard let end = body[start...].firstIndex(of: 34) else { return nil }
        return body[start..<end].contains(92) ? nil : String(decoding: body[start..<end], as: UTF8.self)
    }

    /// `name=value` of every `Set-Cookie`, attributes dropped.
    var cookies: [(String, String)] {
        headers.filter { $0.0 == "set-cookie" }.compactMap { header in
            let pair = header.1.prefix { $0 != ";" }
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        }
    }
}

/// A failed exchange: connection, protocol or unexpected response.
struct HTTPClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
