import Foundation
import SignetMacros

/// Listeners, limits and TLS for an `HTTPServer`. Left out, a setting is its default: 16 KiB headers,
/// 1 MiB bodies, 1024 connections (no per-address limit), no trusted proxy, 30 s timeout, one
/// thread per core, 10 s shutdown grace.
@MemberwiseInit
public struct HTTPServerConfiguration: Sendable {
    /// PEM files for HTTPS. Both are read once, at `start()`.
    @MemberwiseInit
    public struct TLS: Sendable, Equatable {
        /// Certificate chain, PEM.
        public var certificatePath: String
        /// Private key, PEM (unencrypted).
        public var privateKeyPath: String
    }

    /// Addresses to listen on; one libmicrohttpd daemon each.
    public var listen: [ListenAddress]
    /// Approximate cap on request line plus headers. libmicrohttpd's per-connection memory pool is
    /// sized from it; a request that does not fit gets 431 (or 414 for a long URI) and is closed.
    public var maxHeaderBytes: Int = 16 * 1024
    /// Cap on the body. A larger `Content-Length` is refused with 413 before the body is read. A
    /// chunked body that crosses the limit gets 413 once it ends (libmicrohttpd cannot answer in the
    /// middle of an upload); the excess is discarded, and past twice the limit the connection is
    /// closed without a response.
    public var maxBodyBytes: Int = 1024 * 1024
    /// Maximum simultaneous connections per listener; more are refused at accept.
    public var connectionLimit: Int = 1024
    /// Maximum simultaneous connections from one peer address per listener
    /// (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`); more are refused at accept. 0: no limit.
    public var perAddressConnectionLimit: Int = 0
    /// Proxies whose `Forwarded` / `X-Forwarded-*` headers name the client.
    public var trustedProxies: TrustedProxies = .none
    /// Seconds a connection may stay idle, and also the deadline for receiving each complete request
    /// (headers and body), so a client trickling one byte a second is cut off too.
    public var connectionTimeoutSeconds: Int = 30
    /// Threads per listener polling sockets and running sync handlers.
    public var threadCount: Int = ProcessInfo.processInfo.activeProcessorCount
    /// HTTPS material, or nil for plain HTTP.
    public var tls: TLS? = nil
    /// How long `stop()` waits for in-flight async handlers before closing everything.
    public var shutdownGraceSeconds: Double = 10
    /// Whether libmicrohttpd prints its own errors to stderr.
    public var logLibraryErrors: Bool = true
    /// Called after each response with method, path (never the query), status and duration.
    public var accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil
}
