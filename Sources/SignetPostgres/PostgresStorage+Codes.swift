import Foundation
import SignetStore

extension PostgresStorage: AuthorizationCodeStore {
    static let codeColumns = """
        code_hash, client_id, user_id, redirect_uri, scope, code_challenge, nonce, resource, auth_time,
        session_id, grant_id, payload, created_at, expires_at, consumed_at
        """

    static func decodeCode(_ row: PostgresRow) throws -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            codeHash: try row.blob(0), clientID: try row.text(1), userID: try row.text(2),
            redirectURI: try row.text(3), scope: try row.text(4), codeChallenge: row.optionalText(5),
            nonce: row.optionalText(6), resource: row.optionalText(7), authTime: try row.date(8),
            sessionID: row.optionalText(9), grantID: try row.text(10), payload: try row.text(11),
            createdAt: try row.date(12), expiresAt: try row.date(13), consumedAt: try row.optionalDate(14))
    }

    /// See `AuthorizationCodeStore.insertCode(_:)`.
    public func insertCode(_ code: AuthorizationCodeRecord) throws {
        try withConnection { db in
            try db.run("""
                INSERT INTO authorization_codes (\(Self.codeColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
                """, [
                    code.codeHash, code.clientID, code.userID, code.redirectURI, code.scope, code.codeChallenge,
                    code.nonce, code.resource, code.authTime, code.sessionID, code.grantID, code.payload,
                    code.createdAt, code.expiresAt, code.consumedAt,
                ])
        }
    }

    /// See `AuthorizationCodeStore.consumeCode(codeHash:now:)`.
    ///
    /// The redemption itself is one conditional `UPDATE … RETURNING`; only when it matches no row is
    /// the code read to tell a replay from an expired or unknown code. `consumed_at` is never
    /// cleared, so that read cannot be overtaken.
    public func consumeCode(codeHash: [UInt8], now: Date) throws -> CodeConsumption {
        try withConnection { db in
            if let code = try db.one("""
                UPDATE authorization_codes SET consumed_at = $1
                WHERE code_hash = $2 AND consumed_at IS NULL AND expires_at > $1
                RETURNING \(Self.codeColumns)
                """, [now, codeHash], Self.decodeCode) {
                return .consumed(code)
            }
            guard let code = try db.one("SELECT \(Self.codeColumns) FROM authorization_codes WHERE code_hash = $1",
                                        [codeHash], Self.decodeCode) else {
                return .notFound
            }
            return code.consumedAt != nil ? .alreadyConsumed(code) : .expired
        }
    }

    /// See `AuthorizationCodeStore.deleteUnredeemedCodes(userID:)`.
    public func deleteUnredeemedCodes(userID: String) throws -> Int {
        try withConnection { db in try db.run("DELETE FROM authorization_codes WHERE user_id = $1 AND consumed_at IS NULL", [userID]) }
    }
}
