import Foundation

/// An append-only log of security-relevant events.
public protocol AuditLog: Sendable {
    /// Appends the event; returns its sequence number (increasing).
    @discardableResult
    func appendAudit(_ event: AuditEvent) throws -> Int64

    /// The most recent `limit` events, newest first.
    func recentAudit(limit: Int) throws -> [AuditEvent]
}
