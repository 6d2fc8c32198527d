import Foundation

/// A named thread of its own (not the Swift cooperative pool) that runs one body, and whose end
/// can be waited for: the periodic purge and the mail sender run on one each, and stopping the
/// server joins them, so nothing touches the store afterwards.
final class BackgroundThread: Sendable {
    private let state = NSCondition()
    private nonisolated(unsafe) var finished = false

    /// Starts `body` on a new thread named `name`.
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            state.lock()
            finished = true
            state.broadcast()
            state.unlock()
        }
        thread.name = name
        thread.start()
    }

    /// Waits until the body has returned. Safe to call more than once, from any thread but its own.
    func join() {
        state.lock()
        while !finished { state.wait() }
        state.unlock()
    }
}
