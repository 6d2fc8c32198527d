/// The DNS TXT lookups Signet makes (domain claims), behind a protocol so the core never opens a
/// socket: SignetServer implements it with glibc's resolver (`ResolvTXTResolver`), tests with a stub.
public protocol TXTResolver: Sendable {
    /// The TXT records at `name` (each record's strings joined, RFC 7208 §3.3). Blocking and
    /// bounded in time. Throws `.noRecord` for NXDOMAIN or no TXT data, `.failed` otherwise.
    func txtRecords(_ name: String) throws(TXTLookupError) -> [String]
}

/// Why a TXT lookup gave nothing.
public enum TXTLookupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name does not exist or holds no TXT record.
    case noRecord
    /// The resolver did not answer usably (timeout, SERVFAIL, refused, malformed); the detail names no secret.
    case failed(String)

    /// A short description for logs and the CLI.
    public var description: String {
        switch self {
        case .noRecord: "no TXT record"
        case .failed(let detail): "DNS lookup failed: \(detail)"
        }
    }
}
