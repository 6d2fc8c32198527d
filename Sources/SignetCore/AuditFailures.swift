import SignetSync

/// Where `Auditor` reports an event it could not append (the store refused or was unreachable):
/// the process's count of lost events, and the one sink the server installs to log each loss and
/// count it on `/metrics`. The request goes on either way; only the trail misses the event.
public final class AuditFailures: Sendable {
    /// Told the event's name and the store's error (never the event's detail).
    public typealias Sink = @Sendable (_ event: String, _ error: any Error) -> Void

    private let sink = ThreadMutex<Sink?>(nil)

    init() {}

    /// Installs the sink (the server's log line and counter); nil removes it.
    public func report(to sink: Sink?) { self.sink.withLock { $0 = sink } }

    func failed(_ event: String, _ error: any Error) {
        sink.withLock { $0 }?(event, error)
    }
}
