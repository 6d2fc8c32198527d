import Foundation
import SignetStore

/// Authorization codes over a SQL database (`authorization_codes`). The `resource` column holds
/// the terms' resources space separated (NULL: none); `payload` holds their `amr` (`AMRColumn`).
public struct SQLCodeStore: AuthorizationCodeStore {
    let database: any SQLDatabase

    static let codeColumns = """
        code_hash, client_id, user_id, redirect_uri, scope, code_challenge, nonce, resource, auth_time,
        session_id, grant_id, payload, created_at, expires_at, consumed_at, organization_id
        """

    static func decodeCode(_ row: any SQLRow) throws -> AuthorizationCodeRecord {
        let terms = GrantTerms(
            clientID: try row.text(1), userID: try row.text(2), scope: try row.text(4),
            resources: row.optionalText(7).map { $0.split(separator: " ").map(String.init) } ?? [],
            amr: AMRColumn.decode(try row.text(11)), authTime: try row.date(8), sessionID: row.optionalText(9),
            organizationID: row.optionalText(15))
        return AuthorizationCodeRecord(
            codeHash: try row.blob(0), grantID: try row.text(10), terms: terms, redirectURI: try row.text(3),
            codeChallenge: row.optionalText(5), nonce: row.optionalText(6),
            createdAt: try row.date(12), expiresAt: try row.date(13), consumedAt: try row.optionalDate(14))
    }

    static let insert = SQLTemplate.insert(into: "authorization_codes", codeColumns)
    static let codeForRedemption = "SELECT \(codeColumns) FROM authorization_codes WHERE code_hash = $1{for_update}"
    static let codeByHash = "SELECT \(codeColumns) FROM authorization_codes WHERE code_hash = $1"
    static let markConsumed = "UPDATE authorization_codes SET consumed_at = $1 WHERE code_hash = $2 AND consumed_at IS NULL"
    static let deleteUnredeemed = "DELETE FROM authorization_codes WHERE user_id = $1 AND consumed_at IS NULL"

    /// See `AuthorizationCodeStore.insertCode(_:)`.
    public func insertCode(_ code: AuthorizationCodeRecord) throws {
        try database.write { db in try Self.insertRow(code, db) }
    }

    static func insertRow(_ code: AuthorizationCodeRecord, _ db: any SQLConnection) throws {
        try db.run(insert, try binds(code))
    }

    /// `code` as `insert`'s parameters (also `SQLStores.bulkInsert`'s).
    static func binds(_ code: AuthorizationCodeRecord) throws -> [any SQLBindable] {
        [
            code.codeHash, code.clientID, code.userID, code.redirectURI, code.scope, code.codeChallenge,
            code.nonce, code.resources.isEmpty ? nil : code.resources.joined(separator: " "), code.authTime,
            code.sessionID, code.grantID, try AMRColumn.encode(code.amr),
            code.createdAt, code.expiresAt, code.consumedAt, code.organizationID,
        ]
    }

    /// See `AuthorizationCodeStore.consumeCode(codeHash:now:)`.
    ///
    /// One transaction that reads the code locked (SQLite's write lock, PostgreSQL `FOR UPDATE`),
    /// lets `CodeConsumption.decide` rule, and writes `consumed_at` when it says `.consumed`: a
    /// racing redemption waits for the lock and then reads the code redeemed.
    public func consumeCode(codeHash: [UInt8], now: Date) throws -> CodeConsumption {
        try database.transaction { db in try Self.consume(codeHash, now: now, db) }
    }

    static func consume(_ codeHash: [UInt8], now: Date, _ db: any SQLConnection) throws -> CodeConsumption {
        let outcome = CodeConsumption.decide(try db.one(codeForRedemption, [codeHash], decodeCode), now: now)
        if case .consumed = outcome {
            try db.write(markConsumed, [now, codeHash], changing: 1, else: .backend("authorization code changed under its lock"))
        }
        return outcome
    }

    /// See `AuthorizationCodeStore.code(codeHash:)`.
    public func code(codeHash: [UInt8]) throws -> AuthorizationCodeRecord? {
        try database.read { db in try db.one(Self.codeByHash, [codeHash], Self.decodeCode) }
    }

    /// See `AuthorizationCodeStore.redeemCode(codeHash:now:grant:firstToken:)`.
    ///
    /// `consumeCode`'s transaction with the family's two inserts in it. On PostgreSQL that is 2
    /// round trips: `BEGIN` with the locked read, then the `UPDATE`, two `INSERT`s and `COMMIT` in
    /// one pipeline (`SQLConnection.write`); on SQLite one commit.
    public func redeemCode(codeHash: [UInt8], now: Date, grant: GrantRecord, firstToken: RefreshTokenRecord?) throws -> CodeConsumption {
        try database.transaction { db in
            let outcome = try Self.consume(codeHash, now: now, db)
            if case .consumed(let code) = outcome {
                guard grant.grantID == code.grantID, firstToken.map({ $0.grantID == code.grantID }) ?? true else {
                    throw StoreError.corrupt("the grant family to store is not the code's")
                }
                try SQLRefreshTokenStore.insertGrant(grant, db)
                if let firstToken { try SQLRefreshTokenStore.insertToken(firstToken, db) }
            }
            return outcome
        }
    }

    /// See `AuthorizationCodeStore.deleteUnredeemedCodes(userID:)`.
    public func deleteUnredeemedCodes(userID: String) throws -> Int {
        try database.write { db in try db.run(Self.deleteUnredeemed, [userID]) }
    }
}
