import CSignetSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process started by `Subprocess.launch`, tracked by its process id alone.
///
/// Foundation's `Process` on Linux is not used in the tests: it passes every descriptor of the
/// test process to each child (so a child could hold another child's pipe or tracking socket),
/// and it learns that a child ended from a socket the child inherits — when a concurrently started
/// child inherited that socket too, the first child's exit was never seen (a two-node test waited
/// forever on a dead node). Here the child gets only its three streams, and `waitpid` tells.
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: Int32
    /// The raw wait status, once the child has been reaped.
    private let waitStatus = Mutex<Int32?>(nil)

    init(processIdentifier: Int32) {
        self.processIdentifier = processIdentifier
    }

    /// Whether the child is still running (reaps it, without blocking, once it has ended).
    public var isRunning: Bool { reaped() == nil }

    /// True when the child was ended by a signal. Meaningful once it is no longer running.
    public var wasSignaled: Bool {
        guard let status = reaped() else { return false }
        return status & 0x7F != 0 && status & 0x7F != 0x7F
    }

    /// The exit status, or the signal number when `wasSignaled`; -1 while it still runs.
    public var terminationStatus: Int32 {
        guard let status = reaped() else { return -1 }
        return wasSignaled ? status & 0x7F : (status >> 8) & 0xFF
    }

    /// Sends `signal` if the child has not been reaped (so never to a reused process id).
    public func send(_ signal: Int32) {
        waitStatus.withLock { status in
            if status == nil, let ended = Self.poll(processIdentifier) { status = ended }
            if status == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Waits (polling) until the child ends or `seconds` pass; returns whether it ended.
    @discardableResult
    public func waitForExit(seconds: Double) async -> Bool {
        await Polling.wait(seconds: seconds) { !isRunning }
    }

    /// Blocks the calling thread until the child ends or `seconds` pass; returns whether it ended.
    @discardableResult
    public func waitUntilExit(seconds: Double) -> Bool {
        Polling.waitBlocking(seconds: seconds) { !isRunning }
    }

    /// Sends `signal`, waits up to `timeoutSeconds`, then SIGKILL and waits again (a killed child
    /// is always reaped promptly). Returns true when SIGKILL was needed.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeoutSeconds: Double = 10) async -> Bool {
        send(signal)
        if await waitForExit(seconds: timeoutSeconds) { return false }
        send(SIGKILL)
        await waitForExit(seconds: 30)
        return true
    }

    private func reaped() -> Int32? {
        waitStatus.withLock { status in
            if status == nil { status = Self.poll(processIdentifier) }
            return status
        }
    }

    /// `waitpid` without blocking: the wait status once the child has ended, nil while it runs.
    private static func poll(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return status }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            return 0x7F00   // not our child any more (cannot happen here): report "exited 127"
        }
    }
}
