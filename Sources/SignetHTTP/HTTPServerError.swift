/// Why the HTTP server could not be configured or started.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A listen address that is not `IP:port` / `[IPv6]:port` / `localhost:port`.
    case invalidListenAddress(String)
    /// A TLS certificate or key file could not be read.
    case unreadableTLSFile(String)
    /// libmicrohttpd refused to start on this address (in use, no permission, bad TLS material).
    case startFailed(String)
    /// `start()` was called twice.
    case alreadyStarted

    /// A short explanation.
    public var description: String {
        switch self {
        case .invalidListenAddress(let text): "invalid listen address '\(text)' (expected IP:port, [IPv6]:port or localhost:port)"
        case .unreadableTLSFile(let path): "cannot read TLS file '\(path)'"
        case .startFailed(let address): "cannot start HTTP listener on \(address) (address in use, permission, or TLS material)"
        case .alreadyStarted: "server already started"
        }
    }
}
