import Foundation
import SignetStore

extension SQLiteStorage: ConsentStore {
    static func decodeConsent(_ row: SQLiteRow) throws -> ConsentRecord {
        ConsentRecord(userID: try row.text(0), clientID: try row.text(1), scopes: try row.stringArray(2),
                      grantedAt: try row.date(3))
    }

    /// See `ConsentStore.consent(userID:clientID:)`.
    public func consent(userID: String, clientID: String) throws -> ConsentRecord? {
        try read { db in
            try db.one("""
                SELECT user_id, client_id, scopes, granted_at FROM consents WHERE user_id = ? AND client_id = ?
                """, [userID, clientID], Self.decodeConsent)
        }
    }

    /// See `ConsentStore.putConsent(_:)`.
    public func putConsent(_ consent: ConsentRecord) throws {
        let scopes = try StringList.json(consent.scopes)
        try write { db in
            try db.run("""
                INSERT INTO consents (user_id, client_id, scopes, granted_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = excluded.scopes, granted_at = excluded.granted_at
                """, [consent.userID, consent.clientID, scopes, consent.grantedAt])
        }
    }

    /// See `ConsentStore.revokeConsent(userID:clientID:)`.
    public func revokeConsent(userID: String, clientID: String) throws -> Bool {
        try write { db in
            try db.run("DELETE FROM consents WHERE user_id = ? AND client_id = ?", [userID, clientID]) == 1
        }
    }

    /// See `ConsentStore.consents(userID:)`.
    public func consents(userID: String) throws -> [ConsentRecord] {
        try read { db in
            try db.query("""
                SELECT user_id, client_id, scopes, granted_at FROM consents WHERE user_id = ? ORDER BY client_id
                """, [userID], Self.decodeConsent)
        }
    }
}
