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

    /// Creates the recorder.
    public init(log: any AuditLog, clock: any Clock) {
        self.log = log
        self.clock = clock
    }

    /// Records one event; the detail is stored as a JSON object.
    public func record(_ event: String, subject: String? = nil, client: String? = nil, detail: [String: JSONValue] = [:]) {
        _ = try? log.appendAudit(AuditEvent(event: event, subjectID: subject, clientID: client,
                                            detail: JSONValue.object(detail).serializedString(), at: clock.now))
    }
}
