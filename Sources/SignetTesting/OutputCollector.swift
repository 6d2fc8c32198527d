import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads a pipe to its end on a thread of its own, so a chatty child never blocks on a full pipe,
/// and lets callers look at what arrived so far. Owns the descriptor: closes it at end of file.
final class OutputCollector: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Starts reading `descriptor` (the read end of a pipe) until end of file or a read error.
    init(descriptor: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                state.withLock { $0.bytes.append(contentsOf: buffer[0..<count]) }
            }
            close(descriptor)
            state.withLock { $0.finished = true }
        }
        thread.start()
    }

    /// Everything read so far.
    var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// Everything read so far, as UTF-8 text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the pipe reached end of file.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Waits (polling) until end of file or until `seconds` passed; returns whether it finished.
    func waitUntilFinished(seconds: Double) async -> Bool {
        await Polling.wait(seconds: seconds) { isFinished }
    }

    /// The same, blocking the calling thread.
    func waitUntilFinishedBlocking(seconds: Double) -> Bool {
        Polling.waitBlocking(seconds: seconds) { isFinished }
    }
}
