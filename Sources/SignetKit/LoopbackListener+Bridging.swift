import Foundation
#if canImport(Glibc)
import Glibc   // on Apple platforms Foundation brings Darwin
#endif

extension LoopbackListener {
    /// Creates a TCP socket bound to 127.0.0.1:`port`, listening; returns it and the bound port.
    static func bind(port: Int) throws(SignInError) -> (Int32, Int) {
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .network("cannot create a socket (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)   // 127.0.0.1 only, never 0.0.0.0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let code = errno
            closeSocket(fd)
            throw .network("cannot listen on 127.0.0.1:\(port) (errno \(code))")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            closeSocket(fd)
            throw .network("cannot read the bound port")
        }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Waits up to `waitMilliseconds` for a connection; returns it with a 5-second read limit.
    static func acceptConnection(_ fd: Int32, waitMilliseconds: Int32) -> Int32? {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, max(waitMilliseconds, 1)) > 0, entry.revents & Int16(POLLIN) != 0 else { return nil }
        let connection = accept(fd, nil, nil)
        guard connection >= 0 else { return nil }
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
    }

    /// Reads the request head (at most 16 KiB) and returns the target of a `GET` request line.
    static func readRequestTarget(_ connection: Int32) -> String? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while head.count < 16 * 1024 {
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            head.append(contentsOf: buffer[0..<n])
            if head.count >= 4, head.indices.dropLast(3).contains(where: { Array(head[$0..<$0 + 4]) == end }) { break }
        }
        guard let lineEnd = head.firstIndex(of: UInt8(ascii: "\r")),
              let line = String(validating: head[0..<lineEnd], as: UTF8.self) else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/"), parts[2].hasPrefix("HTTP/1.") else { return nil }
        return String(parts[1])
    }

    /// Sends a small HTML response and half-closes.
    static func respond(_ connection: Int32, status: String, body: String) {
        let bytes = Array(body.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-store\r\nPragma: no-cache\r\nReferrer-Policy: no-referrer\r\nX-Content-Type-Options: nosniff\r\n"
            + "X-Frame-Options: DENY\r\n"
            + "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'\r\n"
            + "Connection: close\r\n\r\n"
        let all = Array(head.utf8) + bytes
        var offset = 0
        while offset < all.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let n = all.withUnsafeBytes { send(connection, $0.baseAddress.map { $0 + offset }, all.count - offset, flags) }
            guard n > 0 else { return }
            offset += n
        }
        shutdown(connection, Int32(SHUT_WR))
    }

    static func closeSocket(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }
}
