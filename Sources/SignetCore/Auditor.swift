import Foundation
import SignetJOSE
import SignetStore

/// Records audit events with the time of the injected clock and the caller's context (actor,
/// address, user agent). A failure to record is never fatal: the request goes on, and the lost
/// event is reported to `Auditor.failures` (the server logs and counts it).
///
/// Never pass a secret (code, token, password, verifier, nonce) or an email address in `reason`
/// or `detail`: they are identifiers and short codes only.
public struct Auditor: Sendable {
    /// Where the events go.
    public let log: any AuditLog
    /// The time of each event.
    public let clock: any Clock
    /// Told the name of every event recorded (the server counts sign-ins and reuse in its metrics).
    public let observer: (@Sendable (String) -> Void)?
    /// The caller's context when an event is recorded.
    let context: @Sendable () -> AuditContext?

    /// Creates the recorder; `context` is read at each event (by default the bound `AuditContext`).
    public init(log: any AuditLog, clock: any Clock, observer: (@Sendable (String) -> Void)? = nil,
                context: @escaping @Sendable () -> AuditContext? = { AuditContext.current }) {
        self.log = log
        self.clock = clock
        self.observer = observer
        self.context = context
    }

    /// Records one event. `actor` defaults to the context's; `method` is how a user
    /// authenticated (`pwd`, `fed:CONNECTION`, `native:CONNECTION`); `reason` a short code.
    public func record(_ event: String, actor: String? = nil, subject: String? = nil, client: String? = nil,
                       method: String? = nil, reason: String? = nil, detail: [String: JSONValue] = [:]) {
        observer?(event)
        do {
            _ = try log.appendAudit(self.event(event, actor: actor, subject: subject, client: client, method: method, reason: reason,
                                               detail: detail))
        } catch {
            Self.failures.failed(event, error)
        }
    }

    /// Where every auditor of the process reports an event it could not append.
    public static let failures = AuditFailures()

    /// The event `record` would append, for a caller that appends it in its own transaction with
    /// the change it records (then the caller tells `observer` once it has committed).
    public func event(_ event: String, actor: String? = nil, subject: String? = nil, client: String? = nil,
                      method: String? = nil, reason: String? = nil, detail: [String: JSONValue] = [:]) -> AuditEvent {
        let context = context()
        return AuditEvent(
            event: event, actor: actor ?? context?.actor, subjectID: subject, clientID: client,
            address: context?.address, userAgent: context?.userAgent.map(Self.bounded), method: method, reason: reason,
            detail: JSONValue.object(detail).serializedString(), at: clock.now)
    }

    /// The user agent cut to `AuditEvent.userAgentLimit` bytes on a character boundary, control
    /// characters replaced, so a hostile header cannot fill the trail or forge a line.
    static func bounded(_ userAgent: String) -> String {
        var out = ""
        var bytes = 0
        for scalar in userAgent.unicodeScalars {
            let kept: Unicode.Scalar = scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar
            let width = String(kept).utf8.count
            if bytes + width > AuditEvent.userAgentLimit { break }
            out.unicodeScalars.append(kept)
            bytes += width
        }
        return out
    }
}
