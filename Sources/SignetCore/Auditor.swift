import Foundation
import SignetJOSE
import SignetStore

/// Records audit events with the time of the injected clock. A failure to record is never fatal:
/// the event is dropped, and the request goes on.
public struct Auditor: Sendable {
    /// Where the events go.
    public let log: any AuditLog
    /// The time of each event.
    public let clock: any Clock
    /// Told the name of every event recorded (the server counts sign-ins and reuse in its metrics).
    public let observer: (@Sendable (String) -> Void)?

    /// Creates the recorder.
    public init(log: any AuditLog, clock: any Clock, observer: (@Sendable (String) -> Void)? = nil) {
        self.log = log
        self.clock = clock
        self.observer = observer
    }

    /// Records one event; the detail is stored as a JSON object.
    public func record(_ event: String, subject: String? = nil, client: String? = nil, detail: [String: JSONValue] = [:]) {
        observer?(event)
        _ = try? log.appendAudit(AuditEvent(event: event, subjectID: subject, clientID: client,
                                            detail: JSONValue.object(detail).serializedString(), at: clock.now))
    }
}
