import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Picks a free TCP port, so a listener asked for port 0 knows its issuer URL before it starts.
public enum FreePort {
    /// `HOST:0` becomes `HOST:N` with a port the kernel just handed out; other addresses are unchanged.
    public static func resolve(_ address: String) throws -> String {
        guard address.hasSuffix(":0"), let colon = address.lastIndex(of: ":") else { return address }
        let host = String(address[..<colon])
        return "\(host):\(try pick(ipv6: host.hasPrefix("[")))"
    }

    /// Binds a socket to port 0 on loopback, reads the port back and closes it.
    public static func pick(ipv6: Bool = false) throws -> Int {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FreePortError() }
        defer { close(fd) }
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            try bindAndReadBack(fd, &address)
            return Int(UInt16(bigEndian: address.sin6_port))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        try bindAndReadBack(fd, &address)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Binds `fd` to `address` (a `sockaddr_in` or `sockaddr_in6` with port 0) and reads the
    /// address the kernel chose back into it.
    private static func bindAndReadBack<Address>(_ fd: Int32, _ address: inout Address) throws {
        var length = socklen_t(MemoryLayout<Address>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw FreePortError() }
    }
}

/// No free port could be found.
public struct FreePortError: Error, CustomStringConvertible {
    /// Message.
    public var description: String { "cannot find a free port" }
}
