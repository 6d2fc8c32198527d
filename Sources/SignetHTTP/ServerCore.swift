import CMicroHTTPD
import SignetSync
import Synchronization

/// What the MHD callbacks need: the frozen routes, the limits, and the suspended requests.
/// Immutable except the mutex- and atomic-guarded members.
final class ServerCore: Sendable {
    /// A request whose connection is suspended while its async handler runs.
    struct Suspended {
        let state: RequestState
        let connection: ConnectionHandle
    }

    let routes: RouteTable
    let maxBodyBytes: Int
    let trustedProxies: TrustedProxies
    let accessLog: (@Sendable (AccessLogEntry) -> Void)?
    let watchdog: ConnectionWatchdog
    /// Suspended requests by identity. A request leaves it exactly once: resumed by its task, or
    /// abandoned by `stop()`; whoever removes it calls `MHD_resume_connection`.
    let suspended = ThreadMutex<[ObjectIdentifier: Suspended]>([:])
    /// `stop()` has begun: new async requests are refused, responses close the connection.
    let draining = Atomic(false)
    /// Async requests registered and not yet completed (suspended, or resumed and still sending).
    let asyncOutstanding = Atomic(0)
    /// Abandoned requests MHD has not yet called back after their forced resume.
    let abandonedAwaitingPickup = Atomic(0)

    init(routes: RouteTable, configuration: HTTPServerConfiguration) {
        self.routes = routes
        self.maxBodyBytes = configuration.maxBodyBytes
        self.trustedProxies = configuration.trustedProxies
        self.accessLog = configuration.accessLog
        self.watchdog = ConnectionWatchdog(timeoutSeconds: configuration.connectionTimeoutSeconds)
    }

    /// Registers a request about to be suspended; false while draining.
    func beginAsync(_ state: RequestState, connection: ConnectionHandle) -> Bool {
        suspended.withLock { table in
            guard !draining.load(ordering: .acquiring) else { return false }
            table[ObjectIdentifier(state)] = Suspended(state: state, connection: connection)
            state.isAsync = true
            asyncOutstanding.add(1, ordering: .sequentiallyConsistent)
            return true
        }
    }

    /// Hands a finished handler's response to its connection and resumes it, unless `stop()`
    /// already abandoned the request (then the connection may be gone: it is not touched).
    func finishAsync(_ state: RequestState, response: HTTPResponse) {
        suspended.withLock { table in
            guard let entry = table.removeValue(forKey: ObjectIdentifier(state)) else { return }
            state.pending.withLock { $0 = RequestState.Pending(response: response, abandoned: false) }
            MHD_resume_connection(entry.connection.raw)   // allowed from any thread
        }
    }

    /// Number of async requests not yet completed.
    var outstandingAsync: Int { asyncOutstanding.load(ordering: .sequentiallyConsistent) }

    /// Resumes every still-suspended request with a 503, because MHD must not be stopped while
    /// connections are suspended (libmicrohttpd 0.9.75 aborts the process). Returns how many.
    func abandonSuspended() -> Int {
        suspended.withLock { table in
            let entries = Array(table.values)
            table = [:]
            abandonedAwaitingPickup.add(entries.count, ordering: .sequentiallyConsistent)
            for entry in entries {
                entry.state.pending.withLock {
                    $0 = RequestState.Pending(response: .text("Service Unavailable\n", status: 503), abandoned: true)
                }
                MHD_resume_connection(entry.connection.raw)
            }
            return entries.count
        }
    }

    var isDraining: Bool { draining.load(ordering: .relaxed) }
}

/// The `dh_cls` of one daemon: the shared core plus what differs per listener.
final class DaemonContext: Sendable {
    let core: ServerCore
    let isSecure: Bool

    init(core: ServerCore, isSecure: Bool) {
        self.core = core
        self.isSecure = isSecure
    }
}
