import Foundation

/// One audit-log entry. `detail` is JSON and must not contain secrets.
public struct AuditEvent: Sendable, Equatable {
    /// Sequence number assigned by the store (0 before it is appended).
    public var sequence: Int64
    /// Event name, e.g. `refresh_token_reuse`, `code_replay`, `login_failed`.
    public var event: String
    /// The user concerned, if any.
    public var subjectID: String?
    /// The client concerned, if any.
    public var clientID: String?
    /// Details as a JSON object.
    public var detail: String
    /// When it happened.
    public var at: Date

    /// Creates an event.
    public init(sequence: Int64 = 0, event: String, subjectID: String? = nil, clientID: String? = nil,
                detail: String = "{}", at: Date) {
        self.sequence = sequence
        self.event = event
        self.subjectID = subjectID
        self.clientID = clientID
        self.detail = detail
        self.at = at
    }
}
