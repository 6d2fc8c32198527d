import Foundation
import SignetStore

extension PostgresStorage: AuditLog {
    /// See `AuditLog.appendAudit(_:)`.
    public func appendAudit(_ event: AuditEvent) throws -> Int64 {
        try withConnection { db in
            let sequence = try db.one("""
                INSERT INTO audit_log (event, subject_id, client_id, detail, at) VALUES ($1, $2, $3, $4, $5)
                RETURNING sequence
                """, [event.event, event.subjectID, event.clientID, event.detail, event.at]) { try $0.int64(0) }
            guard let sequence else { throw StoreError.backend("audit insert returned no sequence") }
            return sequence
        }
    }

    /// See `AuditLog.recentAudit(limit:)`.
    public func recentAudit(limit: Int) throws -> [AuditEvent] {
        try withConnection { db in
            try db.query("""
                SELECT sequence, event, subject_id, client_id, detail, at FROM audit_log
                ORDER BY sequence DESC LIMIT $1
                """, [max(0, limit)]) { row in
                AuditEvent(sequence: try row.int64(0), event: try row.text(1), subjectID: row.optionalText(2),
                           clientID: row.optionalText(3), detail: try row.text(4), at: try row.date(5))
            }
        }
    }
}
