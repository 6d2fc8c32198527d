import Foundation
import Synchronization

/// Reads a pipe to its end on a thread of its own, so a chatty child never blocks on a full pipe,
/// and lets callers look at what arrived so far.
final class OutputCollector: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Starts reading `handle` until end of file.
    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                state.withLock { $0.bytes.append(contentsOf: chunk) }
            }
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
        let deadline = Date().addingTimeInterval(seconds)
        while !isFinished {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }
}
