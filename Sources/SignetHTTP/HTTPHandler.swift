/// How a route produces its response.
///
/// - `sync` runs inline on a libmicrohttpd thread: use it for cheap, non-blocking work (static
///   documents, health checks). While it runs, that thread serves no other connection.
/// - `async` suspends the connection and runs in a Swift `Task`; the connection is resumed when the
///   handler returns, so awaiting slow I/O never blocks other requests. Async handlers must not
///   block the cooperative thread pool for long: wrap blocking or CPU-heavy work (password hashing,
///   blocking database calls) in `BlockingWork.run`.
public enum HTTPHandler: Sendable {
    /// Runs inline on the server thread.
    case sync(@Sendable (HTTPRequest) -> HTTPResponse)
    /// Runs in a `Task` while the connection is suspended.
    case async(@Sendable (HTTPRequest) async -> HTTPResponse)
    /// Tries `inline` on the server thread first; when it returns nil (the request needs slow
    /// I/O), runs `suspended` as an `async` handler. For routes whose common case is cheap.
    case deferring(inline: @Sendable (HTTPRequest) -> HTTPResponse?, suspended: @Sendable (HTTPRequest) async -> HTTPResponse)
}
