import Foundation

/// Listeners, limits and TLS for an `HTTPServer`.
public struct HTTPServerConfiguration: Sendable {
    /// PEM files for HTTPS. Both are read once, at `start()`.
    public struct TLS: Sendable, Equatable {
        /// Certificate chain, PEM.
        public var certificatePath: String
        /// Private key, PEM (unencrypted).
        public var privateKeyPath: String

        /// TLS from two PEM files.
        public init(certificatePath: String, privateKeyPath: String) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
        }
    }

    /// Addresses to listen on; one libmicrohttpd daemon each.
    public var listen: [ListenAddress]
    /// Approximate cap on request line plus headers. libmicrohttpd's per-connection memory pool is
    /// sized from it; a request that does not fit gets 431 (or 414 for a long URI) and is closed.
    public var maxHeaderBytes: Int
    /// Cap on the body. A larger `Content-Length` is refused with 413 before the body is read. A
    /// chunked body that crosses the limit gets 413 once it ends (libmicrohttpd cannot answer in the
    /// middle of an upload); the excess is discarded, and past twice the limit the connection is
    /// closed without a response.
    public var maxBodyBytes: Int
    /// Maximum simultaneous connections per listener; more are refused at accept.
    public var connectionLimit: Int
    /// Maximum simultaneous connections from one peer address per listener
    /// (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`); more are refused at accept. 0: no limit.
    public var perAddressConnectionLimit: Int
    /// Proxies whose `Forwarded` / `X-Forwarded-*` headers name the client.
    public var trustedProxies: TrustedProxies
    /// Seconds a connection may stay idle, and also the deadline for receiving each complete request
    /// (headers and body), so a client trickling one byte a second is cut off too.
    public var connectionTimeoutSeconds: Int
    /// Threads per listener polling sockets and running sync handlers.
    public var threadCount: Int
    /// HTTPS material, or nil for plain HTTP.
    public var tls: TLS?
    /// How long `stop()` waits for in-flight async handlers before closing everything.
    public var shutdownGraceSeconds: Double
    /// Whether libmicrohttpd prints its own errors to stderr.
    public var logLibraryErrors: Bool
    /// Called after each response with method, path (never the query), status and duration.
    public var accessLog: (@Sendable (AccessLogEntry) -> Void)?

    /// A configuration with the defaults: 16 KiB headers, 1 MiB bodies, 1024 connections (no
    /// per-address limit), no trusted proxy, 30 s timeout, one thread per core, 10 s shutdown grace.
    public init(listen: [ListenAddress], maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1024 * 1024,
                connectionLimit: Int = 1024, perAddressConnectionLimit: Int = 0,
                trustedProxies: TrustedProxies = .none, connectionTimeoutSeconds: Int = 30,
                threadCount: Int = ProcessInfo.processInfo.activeProcessorCount, tls: TLS? = nil,
                shutdownGraceSeconds: Double = 10, logLibraryErrors: Bool = true,
                accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil) {
        self.listen = listen
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.trustedProxies = trustedProxies
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.threadCount = threadCount
        self.tls = tls
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.logLibraryErrors = logLibraryErrors
        self.accessLog = accessLog
    }
}
