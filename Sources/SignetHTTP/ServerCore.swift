import CMicroHTTPD
import Synchronization

/// What the MHD callbacks need: the frozen routes, the limits, and the count of suspended requests.
/// Immutable except `lifecycle`, which is guarded by a mutex.
final class ServerCore: Sendable {
    struct Lifecycle {
        /// Async handlers started and not yet finished.
        var inFlight = 0
        /// Daemons are being destroyed: finished tasks must not touch their connections.
        var closed = false
    }

    let routes: RouteTable
    let maxBodyBytes: Int
    let accessLog: (@Sendable (AccessLogEntry) -> Void)?
    let lifecycle = Mutex(Lifecycle())
    let watchdog: ConnectionWatchdog
    /// `stop()` has begun: new async requests are refused, responses close the connection.
    let draining = Atomic(false)

    init(routes: RouteTable, configuration: HTTPServerConfiguration) {
        self.routes = routes
        self.maxBodyBytes = configuration.maxBodyBytes
        self.accessLog = configuration.accessLog
        self.watchdog = ConnectionWatchdog(timeoutSeconds: configuration.connectionTimeoutSeconds)
    }

    /// Registers an async handler about to start; false while draining.
    func beginAsync() -> Bool {
        lifecycle.withLock { state in
            guard !draining.load(ordering: .acquiring) else { return false }
            state.inFlight += 1
            return true
        }
    }

    /// Resumes the connection of a finished async handler unless the daemons are going away.
    func finishAsync(_ connection: ConnectionHandle) {
        lifecycle.withLock { state in
            // Holding the lock across the call keeps `stop()` from destroying the daemon meanwhile.
            if !state.closed { MHD_resume_connection(connection.raw) }
            state.inFlight -= 1
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
