import Synchronization

/// Per-request state carried through libmicrohttpd's `con_cls` pointer.
///
/// Created in the URI-log callback (retained), released in the request-completed callback.
/// Threading: every field except `pending` is touched only by the MHD thread that owns the
/// connection (MHD serializes calls per connection, and its suspend/resume locks order the hand-off).
/// `pending` is written by the async handler's task and read by the MHD thread after resume.
final class RequestState: @unchecked Sendable {
    enum Phase {
        /// Headers received; the access handler has not run yet.
        case new
        /// Reading the body.
        case receiving
        /// The body crossed the limit; a 413 is queued or about to be.
        case tooLarge
        /// Suspended while an async handler runs.
        case suspended
        /// A response has been queued.
        case done
    }

    /// The request target exactly as received (path and query, still percent-encoded).
    let rawURI: String
    var phase = Phase.new
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    /// Bytes discarded after the body limit was crossed.
    var discarded = 0
    /// Registered as an async request (counted in `ServerCore.asyncOutstanding` until completed).
    var isAsync = false
    /// Monotonic start time in nanoseconds, set only when an access log is configured.
    var startNanos: UInt64 = 0
    /// Method and decoded path, kept for the access log of async requests.
    var logMethod = HTTPMethod.GET
    var logPath = ""
    /// The request id, chosen when the headers arrive (`RequestContext.requestID(peer:headers:trustedProxies:)`).
    var requestID = ""
    /// The connection's peer (IP literal), read once when the headers arrive.
    var peerAddress = ""
    /// The client's address as far as known (the peer until the request is parsed).
    var clientAddress = ""
    /// What the MHD thread sends after a resume.
    struct Pending {
        let response: HTTPResponse
        /// Set by `stop()`: the handler did not finish in time.
        let abandoned: Bool
    }

    /// The async handler's response (or stop's 503), handed to the MHD thread on resume.
    let pending = Mutex<Pending?>(nil)

    /// The connection this request arrived on (nil if MHD did not report it).
    let connection: ConnectionState?

    init(rawURI: String, connection: ConnectionState?) {
        self.rawURI = rawURI
        self.connection = connection
    }
}

/// A connection pointer that may cross into the task that resumes it.
/// Only `MHD_resume_connection` is called with it, which libmicrohttpd allows from any thread.
struct ConnectionHandle: @unchecked Sendable {
    let raw: OpaquePointer
}
