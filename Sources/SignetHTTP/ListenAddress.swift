import Foundation

/// An IP address and port to listen on, parsed from `"127.0.0.1:8080"`, `"[::1]:0"` or
/// `"0.0.0.0:443"`.
///
/// Only IP literals are accepted, never DNS names, with one exception: `localhost` means
/// `127.0.0.1` (IPv4 loopback only; write `[::1]` for IPv6). Port 0 asks the kernel for a free
/// port; read it back from `HTTPServer.boundAddresses`.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The IP literal, without brackets.
    public let host: String
    /// The port (0 = any free port).
    public let port: Int
    /// Whether `host` is an IPv6 address.
    public let isIPv6: Bool

    /// Parses `host:port`; IPv6 hosts must be bracketed.
    public init(_ text: String) throws(HTTPServerError) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .invalidListenAddress(text)
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw .invalidListenAddress(text) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
              portText.count <= 5, let port = Int(portText), port <= 65535 else { throw .invalidListenAddress(text) }
        let name = host == "localhost" ? "127.0.0.1" : String(host)
        if !text.hasPrefix("["), ListenAddress.isIPv4(name) {
            self.init(host: name, port: port, isIPv6: false)
        } else if text.hasPrefix("["), ListenAddress.isIPv6(name) {
            self.init(host: name, port: port, isIPv6: true)
        } else {
            throw .invalidListenAddress(text)
        }
    }

    private init(host: String, port: Int, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// The same host with another port (e.g. the port the kernel picked).
    func with(port: Int) -> ListenAddress { ListenAddress(host: host, port: port, isIPv6: isIPv6) }

    /// `host:port`, with brackets for IPv6.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    static func isIPv4(_ host: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    static func isIPv6(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, host, &address) == 1
    }
}
