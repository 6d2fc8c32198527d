import Foundation
import SignetStore

/// The audit log over a SQL database (`audit_log`).
public struct SQLAuditLog: AuditLog {
    let database: any SQLDatabase

    static let append = """
        INSERT INTO audit_log (event, subject_id, client_id, detail, at) VALUES ($1, $2, $3, $4, $5)
        RETURNING sequence
        """
    static let recent = """
        SELECT sequence, event, subject_id, client_id, detail, at FROM audit_log
        ORDER BY sequence DESC LIMIT $1
        """

    /// See `AuditLog.appendAudit(_:)`.
    public func appendAudit(_ event: AuditEvent) throws -> Int64 {
        try database.write { db in
            let sequence = try db.one(Self.append, [event.event, event.subjectID, event.clientID, event.detail, event.at]) {
                try $0.int64(0)
            }
            guard let sequence else { throw StoreError.backend("audit insert returned no sequence") }
            return sequence
        }
    }

    /// See `AuditLog.recentAudit(limit:)`.
    public func recentAudit(limit: Int) throws -> [AuditEvent] {
        try database.read { db in
            try db.query(Self.recent, [max(0, limit)]) { row in
                AuditEvent(sequence: try row.int64(0), event: try row.text(1), subjectID: row.optionalText(2),
                           clientID: row.optionalText(3), detail: try row.text(4), at: try row.date(5))
            }
        }
    }
}
