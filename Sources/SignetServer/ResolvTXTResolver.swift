import CSignetResolver
import Foundation
import SignetCore

/// The TXT lookups of domain claims through glibc's stub resolver (`res_nquery`, `ns_parserr`):
/// the system's resolver configuration, or only the server of `domains.resolver`.
public struct ResolvTXTResolver: TXTResolver {
    /// The one server asked, or nil for the system resolver.
    let server: ResolverAddress?
    /// Seconds per try (two tries).
    let timeoutSeconds: Int

    /// A resolver from the `domains` settings.
    public init(_ settings: SignetConfiguration.Domains) {
        self.init(server: settings.resolver.flatMap(ResolverAddress.init(parsing:)), timeoutSeconds: settings.resolverTimeout)
    }

    init(server: ResolverAddress?, timeoutSeconds: Int) {
        self.server = server
        self.timeoutSeconds = timeoutSeconds
    }

    /// See `TXTResolver.txtRecords(_:)`.
    public func txtRecords(_ name: String) throws(TXTLookupError) -> [String] {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var length = 0
        let status: Int32 = name.withCString { namePointer in
            buffer.withUnsafeMutableBufferPointer { out in
                if let server {
                    return server.host.withCString { host in
                        signet_txt_query(namePointer, host, Int32(server.port), Int32(timeoutSeconds), out.baseAddress, out.count, &length)
                    }
                }
                return signet_txt_query(namePointer, nil, 0, Int32(timeoutSeconds), out.baseAddress, out.count, &length)
            }
        }
        switch UInt32(bitPattern: status) {
        case SIGNET_TXT_FOUND.rawValue: return Self.records(buffer.prefix(length))
        case SIGNET_TXT_NO_RECORD.rawValue: throw .noRecord
        case SIGNET_TXT_TOO_LONG.rawValue: throw .failed("the TXT records are too long")
        default: throw .failed("the resolver gave no usable answer")
        }
    }

    /// The records the C side wrote: a 2-byte big-endian length and the bytes, each.
    static func records(_ bytes: ArraySlice<UInt8>) -> [String] {
        var records: [String] = []
        var index = bytes.startIndex
        while index + 2 <= bytes.endIndex {
            let count = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            index += 2
            guard index + count <= bytes.endIndex else { break }
            records.append(String(decoding: bytes[index ..< index + count], as: UTF8.self))
            index += count
        }
        return records
    }
}

/// `domains.resolver`: an IPv4 address with an optional port (`127.0.0.1:5353`; 53 when absent).
public struct ResolverAddress: Sendable, Equatable {
    /// The dotted IPv4 address.
    public let host: String
    /// The UDP/TCP port.
    public let port: Int

    /// Parses the setting's text; nil when it is not an IPv4 address with an optional port 1–65535.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber)
                && (Int(octet) ?? 256) <= 255 && !(octet.count > 1 && octet.hasPrefix("0"))
        }) else { return nil }
        var port = 53
        if parts.count == 2 {
            guard let given = Int(parts[1]), (1...65_535).contains(given), parts[1].allSatisfy(\.isNumber) else { return nil }
            port = given
        }
        self.host = String(parts[0])
        self.port = port
    }
}
