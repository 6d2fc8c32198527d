import CMicroHTTPD
import CSignetShims
import Dispatch
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd.
///
/// ## Threading
/// Each listen address gets one libmicrohttpd daemon running its own internal thread pool
/// (`MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL`, `threadCount` threads). Those threads read
/// and write sockets and call the access handler.
///
/// `poll`, not `epoll`: libmicrohttpd 0.9.75's `MHD_quiesce_daemon` (how `stop()` stops
/// accepting) takes the listen socket out of each epoll worker's set while that worker may be
/// doing the same, and the loser aborts the process ("Failed to remove listen FD from epoll set",
/// daemon.c lines 4976 and 5531; CI hit it once). With `poll` a worker rebuilds its descriptor
/// set on every turn and quiescing only tells it to leave the listen socket out. The price is a
/// turn linear in the worker's own connections, which the pool spreads out (bench/README.md,
/// "Session 18 (http)"). Request state travels through MHD's per-request
/// `con_cls` pointer: retained when the request line is parsed, released when MHD reports the
/// request completed (sent, failed or closed).
///
/// - `sync` handlers run inline on the MHD thread; while one runs, that thread serves nothing
///   else, so they must be fast and non-blocking.
/// - `async` handlers: the connection is suspended (`MHD_suspend_connection`), the handler runs in
///   a Swift `Task`, stores its response in the request state and calls `MHD_resume_connection`;
///   MHD then calls the access handler again on its own thread, which queues the stored response.
///   A handler awaiting a slow upstream for seconds therefore blocks no other request. Blocking
///   work inside async handlers goes through `BlockingWork.run`.
///
/// A `ConnectionWatchdog` timer (every 0.5 s) shuts down sockets that have not delivered a whole
/// request within `connectionTimeoutSeconds`; MHD's own timeout only measures inactivity.
///
/// ## Shutdown
/// `stop()` stops accepting (`MHD_quiesce_daemon`), refuses new async requests with 503 and marks
/// responses `Connection: close`, waits up to `shutdownGraceSeconds` for in-flight async handlers,
/// then answers the requests still suspended with 503 (libmicrohttpd 0.9.75 aborts the process if
/// stopped with suspended connections) and destroys the daemons. A handler that finishes later is
/// ignored: its connection is never touched again.
///
/// The server object must outlive its daemons; `stop()` (also run by `deinit`) ensures that.
public final class HTTPServer: @unchecked Sendable {
    /// The configuration the server was created with.
    public let configuration: HTTPServerConfiguration
    private let router: Router
    /// Guards `daemons`, `bound`, `contexts` and `tlsMaterial` (start/stop only; never on the request path).
    private let lock = NSLock()
    private var core: ServerCore?
    private var daemons: [OpaquePointer] = []
    private var contexts: [DaemonContext] = []
    private var bound: [ListenAddress] = []
    /// `strdup`ed PEM strings; MHD keeps pointers to them for the daemon's lifetime.
    private var tlsMaterial: [UnsafeMutablePointer<CChar>] = []
    private let stopping = Atomic(false)

    /// A server that will serve `router`'s routes (as they are when `start()` runs).
    public init(configuration: HTTPServerConfiguration, router: Router) {
        self.configuration = configuration
        self.router = router
    }

    deinit { stop() }

    /// The addresses actually bound, with ports the kernel picked for port 0; empty before `start()`.
    public var boundAddresses: [ListenAddress] { lock.withLock { bound } }

    /// The ports actually bound, in `listen` order.
    public var boundPorts: [Int] { boundAddresses.map(\.port) }

    /// True while `stop()` runs: from the moment it stops accepting until it returns.
    public var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Starts one daemon per listen address. On failure, daemons already started are stopped.
    public func start() throws(HTTPServerError) {
        lock.lock()
        defer { lock.unlock() }
        guard core == nil else { throw .alreadyStarted }
        var certificate: UnsafeMutablePointer<CChar>?
        var key: UnsafeMutablePointer<CChar>?
        if let tls = configuration.tls {
            certificate = try HTTPServer.readPEM(tls.certificatePath)
            key = try HTTPServer.readPEM(tls.privateKeyPath)
            tlsMaterial = [certificate, key].compactMap { $0 }
        }
        let core = ServerCore(routes: router.snapshot(), configuration: configuration)
        for address in configuration.listen {
            let context = DaemonContext(core: core, isSecure: configuration.tls != nil)
            guard let daemon = startDaemon(on: address, context: context, certificate: certificate, key: key) else {
                for daemon in daemons { MHD_stop_daemon(daemon) }
                daemons = []
                contexts = []
                bound = []
                freeTLSMaterial()
                throw .startFailed(address.description)
            }
            daemons.append(daemon)
            contexts.append(context)
            bound.append(address.with(port: Int(signet_mhd_bound_port(daemon))))
        }
        core.watchdog.startSweeping()
        self.core = core
    }

    /// Stops gracefully: no new connections, up to `shutdownGraceSeconds` for in-flight async
    /// handlers, then every connection is closed. Safe to call more than once; never waits longer
    /// than the grace period plus the time MHD takes to join its threads.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let core else { return }
        stopping.store(true, ordering: .releasing)
        defer { stopping.store(false, ordering: .releasing) }
        core.draining.store(true, ordering: .releasing)
        // MHD hands the listen sockets back; they are ours to close, after MHD_stop_daemon.
        let listenSockets = daemons.map { MHD_quiesce_daemon($0) }.filter { $0 >= 0 }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, configuration.shutdownGraceSeconds) * 1e9)
        while core.outstandingAsync > 0, DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(5_000)
        }
        // libmicrohttpd 0.9.75 aborts if stopped with suspended connections: resume the stragglers
        // with a 503 and wait (bounded) until MHD has picked each of them up.
        if core.abandonSuspended() > 0 {
            let pickup = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
            while core.abandonedAwaitingPickup.load(ordering: .sequentiallyConsistent) > 0,
                  DispatchTime.now().uptimeNanoseconds < pickup {
                usleep(1_000)
            }
        }
        for daemon in daemons { MHD_stop_daemon(daemon) }
        for socket in listenSockets { close(socket) }
        core.watchdog.stopSweeping()
        daemons = []
        contexts = []
        bound = []
        freeTLSMaterial()
        self.core = nil
    }

    /// Waits until the process receives SIGTERM or SIGINT (whose default actions are disabled
    /// first), and returns the signal number.
    @discardableResult
    public static func waitForTerminationSignal() async -> Int32 {
        await TerminationSignal.install().wait()
    }

    private func startDaemon(on address: ListenAddress, context: DaemonContext,
                             certificate: UnsafeMutablePointer<CChar>?, key: UnsafeMutablePointer<CChar>?) -> OpaquePointer? {
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if configuration.logLibraryErrors { flags |= MHD_USE_ERROR_LOG.rawValue }
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if certificate != nil { flags |= MHD_USE_TLS.rawValue }
        var config = signet_mhd_config()
        config.flags = flags
        config.thread_pool_size = UInt32(clamping: max(1, configuration.threadCount))
        config.connection_limit = UInt32(clamping: max(1, configuration.connectionLimit))
        config.per_ip_connection_limit = UInt32(clamping: max(0, configuration.perAddressConnectionLimit))
        config.connection_timeout_seconds = UInt32(clamping: max(1, configuration.connectionTimeoutSeconds))
        // MHD's per-connection pool holds the request line, headers and the read/write buffers;
        // the slack leaves room for the response headers. Measured with the 16 KiB default:
        // 18 KB of headers pass, 30 KB get 431 (a long URI gets 414).
        config.connection_memory_limit = max(8 * 1024, configuration.maxHeaderBytes + 4 * 1024)
        config.tls_certificate_pem = UnsafePointer(certificate)
        config.tls_private_key_pem = UnsafePointer(key)
        config.access_handler = mhdAccessHandler
        config.access_handler_cls = Unmanaged.passUnretained(context).toOpaque()
        config.completed = mhdRequestCompleted
        config.uri_log = mhdURILog
        config.uri_log_cls = Unmanaged.passUnretained(context).toOpaque()
        config.completed_cls = Unmanaged.passUnretained(context).toOpaque()
        config.notify_connection = mhdNotifyConnection
        config.notify_connection_cls = Unmanaged.passUnretained(context).toOpaque()
        return address.withSocketAddress { socketAddress in
            config.address = socketAddress
            return signet_mhd_start(&config)
        }
    }

    private func freeTLSMaterial() {
        for pointer in tlsMaterial {
            memset(pointer, 0, strlen(pointer))   // private key bytes do not linger in freed memory
            free(pointer)
        }
        tlsMaterial = []
    }

    private static func readPEM(_ path: String) throws(HTTPServerError) -> UnsafeMutablePointer<CChar> {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty,
              let copy = data.withUnsafeBytes({ bytes -> UnsafeMutablePointer<CChar>? in
                  guard let base = bytes.baseAddress,
                        let pointer = calloc(bytes.count + 1, 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
                  memcpy(pointer, base, bytes.count)
                  return pointer
              }) else { throw .unreadableTLSFile(path) }
        return copy
    }
}

extension ListenAddress {
    /// Calls `body` with a `sockaddr_in`/`sockaddr_in6` for this address (valid only inside `body`).
    func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}

/// Turns the first of several signals into one callback, via dispatch signal sources.
private final class SignalWaiter: @unchecked Sendable {
    // All mutable state is touched only on `queue`.
    private let queue = DispatchQueue(label: "signet.signals")
    private let signals: [Int32]
    private var sources: [DispatchSourceSignal] = []
    private var callback: (@Sendable (Int32) -> Void)?

    init(signals: [Int32], callback: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        self.callback = callback
    }

    func arm() {
        queue.sync {
            for number in signals {
                signal(number, SIG_IGN)   // the dispatch source sees it; the default action (exit) does not run
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [self] in fire(number) }   // cycle kept on purpose until fired
                source.resume()
                sources.append(source)
            }
        }
    }

    private func fire(_ number: Int32) {
        guard let callback else { return }
        self.callback = nil
        for source in sources { source.cancel() }
        sources = []
        callback(number)
    }
}

/// SIGTERM or SIGINT, caught from the moment `install()` returns: arm it before starting
/// anything, so a signal that arrives during start-up still ends in a clean shutdown.
public final class TerminationSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int32, Never>?)
        case received(Int32)
    }

    private let state = Mutex(State.waiting(nil))

    private init() {}

    /// A termination signal that only `deliver(_:)` ends: no handler is installed and no signal
    /// disposition changes. For tests of the shutdown path, and for embedders with their own
    /// signal handling.
    public static func manual() -> TerminationSignal { TerminationSignal() }

    /// Installs the handlers now (synchronously) and returns the signal to await.
    public static func install() -> TerminationSignal {
        let signal = TerminationSignal()
        SignalWaiter(signals: [SIGTERM, SIGINT]) { [signal] number in signal.deliver(number) }.arm()
        return signal
    }

    /// Waits for the first SIGTERM or SIGINT and returns its number.
    public func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let received: Int32? = state.withLock { state in
                if case .received(let number) = state { return number }
                state = .waiting(continuation)
                return nil
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    /// Ends the wait with `number`, as if the process had received that signal; only the first
    /// delivery counts.
    public func deliver(_ number: Int32) {
        let continuation: CheckedContinuation<Int32, Never>? = state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .received(number)
            return continuation
        }
        continuation?.resume(returning: number)
    }
}
