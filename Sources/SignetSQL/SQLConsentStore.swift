import Foundation
import SignetStore

/// Remembered consent over a SQL database (`consents`).
public struct SQLConsentStore: ConsentStore {
    let database: any SQLDatabase

    static func decodeConsent(_ row: any SQLRow) throws -> ConsentRecord {
        ConsentRecord(userID: try row.text(0), clientID: try row.text(1), scopes: try row.stringArray(2),
                      grantedAt: try row.date(3))
    }

    static let one = "SELECT user_id, client_id, scopes, granted_at FROM consents WHERE user_id = $1 AND client_id = $2"
    static let put = """
        INSERT INTO consents (user_id, client_id, scopes, granted_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = excluded.scopes, granted_at = excluded.granted_at
        """
    static let revoke = "DELETE FROM consents WHERE user_id = $1 AND client_id = $2"
    static let ofUser = "SELECT user_id, client_id, scopes, granted_at FROM consents WHERE user_id = $1 ORDER BY client_id"

    /// See `ConsentStore.consent(userID:clientID:)`.
    public func consent(userID: String, clientID: String) throws -> ConsentRecord? {
        try database.read { db in try db.one(Self.one, [userID, clientID], Self.decodeConsent) }
    }

    /// See `ConsentStore.putConsent(_:)`.
    public func putConsent(_ consent: ConsentRecord) throws {
        let scopes = try StringList.json(consent.scopes)
        try database.write { db in try db.run(Self.put, [consent.userID, consent.clientID, scopes, consent.grantedAt]) }
    }

    /// See `ConsentStore.revokeConsent(userID:clientID:)`.
    public func revokeConsent(userID: String, clientID: String) throws -> Bool {
        try database.write { db in try db.run(Self.revoke, [userID, clientID]) == 1 }
    }

    /// See `ConsentStore.consents(userID:)`.
    public func consents(userID: String) throws -> [ConsentRecord] {
        try database.read { db in try db.query(Self.ofUser, [userID], Self.decodeConsent) }
    }
}
