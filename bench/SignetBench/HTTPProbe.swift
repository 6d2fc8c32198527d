import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client for 127.0.0.1: one GET per fresh TCP connection, no
/// Foundation networking (URLSession adds milliseconds of its own and a background thread).
enum HTTPProbe {
    /// What one attempt saw.
    enum Outcome: Equatable {
        /// Nothing listens on the port yet (connect failed).
        case refused
        /// The status code of the response.
        case status(Int)
        /// Connected, but no parsable response arrived in time.
        case failed
    }

    /// Sends `GET path` to `127.0.0.1:port` with `Connection: close` and reads the whole response.
    static func get(port: Int, path: String, timeoutMilliseconds: Int = 2000) -> Outcome {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failed }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return .refused }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return .failed }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while response.count < 1 << 20 {
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received <= 0 { break }
            response.append(contentsOf: buffer[0..<received])
        }
        // "HTTP/1.1 200 OK": the three digits after the first space.
        guard response.count >= 12, let space = response.firstIndex(of: UInt8(ascii: " ")),
              space + 4 <= response.count,
              let code = Int(String(decoding: response[(space + 1)..<(space + 4)], as: UTF8.self)) else {
            return .failed
        }
        return .status(code)
    }
}
