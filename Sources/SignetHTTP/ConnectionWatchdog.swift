import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// Per-connection state, carried through MHD's `socket_context` (retained when the connection
/// opens, released when it closes).
final class ConnectionState: Sendable {
    let fd: Int32
    /// The client's IP literal, formatted once per connection rather than per request
    /// (`inet_ntop` formats through `sprintf`: 2,000 of the 58,000 instructions of a `/healthz` request).
    let peer: String
    /// Monotonic nanoseconds by which the current request must be fully received; 0 = none
    /// (a handler is running or a response is being sent).
    let deadline = Atomic<UInt64>(0)

    init(fd: Int32, peer: String) {
        self.fd = fd
        self.peer = peer
    }
}

/// Enforces a whole-request deadline that libmicrohttpd lacks.
///
/// MHD's connection timeout only measures inactivity, so a client sending one byte a second keeps
/// a connection (and its memory) forever. Here every connection must deliver each complete request
/// (headers and body) within `timeout` of the connection opening or of the previous response
/// finishing; a sweep every half-second shuts down the socket of any connection past its deadline,
/// and MHD then closes it as it would any broken connection.
final class ConnectionWatchdog: Sendable {
    let timeoutNanos: UInt64
    /// Live connections. The lock is also held while shutting a socket down, and MHD reports a
    /// connection closed (taking this lock) before it closes the descriptor, so a descriptor shut
    /// down here always still belongs to the connection it was recorded for.
    private let live = Mutex<[ObjectIdentifier: ConnectionState]>([:])
    private let timer = Mutex<TimerBox?>(nil)

    /// A dispatch timer, only created, stored and cancelled under `timer`'s lock.
    private struct TimerBox: @unchecked Sendable { let source: DispatchSourceTimer }

    init(timeoutSeconds: Int) {
        timeoutNanos = UInt64(max(1, timeoutSeconds)) * 1_000_000_000
    }

    func opened(fd: Int32, peer: String) -> ConnectionState {
        let state = ConnectionState(fd: fd, peer: peer)
        state.deadline.store(Self.now() + timeoutNanos, ordering: .relaxed)
        live.withLock { $0[ObjectIdentifier(state)] = state }
        return state
    }

    func closed(_ state: ConnectionState) {
        _ = live.withLock { $0.removeValue(forKey: ObjectIdentifier(state)) }
    }

    /// The request is complete: the handler may take as long as it needs.
    func requestReceived(_ state: ConnectionState?) {
        state?.deadline.store(0, ordering: .relaxed)
    }

    /// The response is done: the next request must arrive in full within the timeout.
    func responseFinished(_ state: ConnectionState?) {
        state?.deadline.store(Self.now() + timeoutNanos, ordering: .relaxed)
    }

    func startSweeping() {
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "signet.http.watchdog"))
        source.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        source.setEventHandler { [self] in sweep() }
        source.resume()
        let box = TimerBox(source: source)
        timer.withLock { $0 = box }
    }

    func stopSweeping() {
        timer.withLock { $0?.source.cancel(); $0 = nil }
    }

    private func sweep() {
        let now = Self.now()
        live.withLock { connections in
            for state in connections.values {
                let deadline = state.deadline.load(ordering: .relaxed)
                if deadline != 0, deadline < now {
                    state.deadline.store(0, ordering: .relaxed)
                    shutdown(state.fd, Int32(SHUT_RDWR))
                }
            }
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
