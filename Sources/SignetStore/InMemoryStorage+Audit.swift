import Foundation

extension InMemoryStorage: AuditLog {
    /// See `AuditLog.appendAudit(_:)`.
    public func appendAudit(_ event: AuditEvent) throws -> Int64 {
        state.withLock { s in
            var stored = event
            stored.sequence = Int64(s.audit.count + 1)
            s.audit.append(stored)
            return stored.sequence
        }
    }

    /// See `AuditLog.recentAudit(limit:)`.
    public func recentAudit(limit: Int) throws -> [AuditEvent] {
        state.withLock { Array($0.audit.suffix(max(0, limit)).reversed()) }
    }
}
