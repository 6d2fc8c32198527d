import Foundation
import SignetStore

/// Passkeys over a SQL database (`passkey_credentials`, `passkey_ceremonies`).
public struct SQLPasskeyStore: PasskeyStore {
    let database: any SQLDatabase

    static let columns = """
        credential_id, user_id, public_key, sign_count, backup_eligible, backup_state, transports, name, created_at, \
        last_used_at, flagged_at
        """
    static let insert = SQLTemplate.insert(into: "passkey_credentials", columns)
    static let byID = "SELECT \(columns) FROM passkey_credentials WHERE credential_id = $1"
    static let byUser = "SELECT \(columns) FROM passkey_credentials WHERE user_id = $1 ORDER BY created_at, credential_id"
    /// One statement, so of two racing assertions with the same counter only one is recorded.
    static let use = """
        UPDATE passkey_credentials SET sign_count = $2, backup_state = $3, last_used_at = $4
        WHERE credential_id = $1 AND flagged_at IS NULL AND (sign_count < $2 OR (sign_count = 0 AND $2 = 0))
        RETURNING 1
        """
    static let flag = "UPDATE passkey_credentials SET flagged_at = $2 WHERE credential_id = $1 AND flagged_at IS NULL"
    static let rename = "UPDATE passkey_credentials SET name = $3 WHERE credential_id = $1 AND user_id = $2"
    static let delete = "DELETE FROM passkey_credentials WHERE credential_id = $1 AND user_id = $2"
    static let insertCeremony = """
        INSERT INTO passkey_ceremonies (challenge_hash, kind, user_id, binding, context, created_at, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        """
    static let countCeremonies = "SELECT COUNT(*) FROM passkey_ceremonies"
    static let removeSpentCeremonies = "DELETE FROM passkey_ceremonies WHERE expires_at <= $1 OR consumed_at IS NOT NULL"
    /// Single use is this one statement: of racing calls exactly one matches the row.
    static let consumeCeremony = """
        UPDATE passkey_ceremonies SET consumed_at = $1
        WHERE challenge_hash = $2 AND kind = $3 AND consumed_at IS NULL AND expires_at > $1
        RETURNING challenge_hash, kind, user_id, binding, context, created_at, expires_at
        """

    static func decode(_ row: any SQLRow) throws -> PasskeyRecord {
        PasskeyRecord(id: try row.blob(0), userID: try row.text(1), publicKey: try row.blob(2), signCount: try row.int64(3),
                      backupEligible: try row.bool(4), backupState: try row.bool(5), transports: try row.stringArray(6),
                      name: try row.text(7), createdAt: try row.date(8), lastUsedAt: try row.optionalDate(9),
                      flaggedAt: try row.optionalDate(10))
    }

    static func decodeCeremony(_ row: any SQLRow) throws -> PasskeyCeremonyRecord {
        let kindText = try row.text(1)
        guard let kind = PasskeyCeremonyRecord.Kind(rawValue: kindText) else { throw StoreError.corrupt("passkey_ceremonies.kind \(kindText)") }
        return PasskeyCeremonyRecord(challengeHash: try row.blob(0), kind: kind, userID: row.optionalText(2), binding: try row.blob(3),
                                     context: try row.text(4), createdAt: try row.date(5), expiresAt: try row.date(6))
    }

    /// The parameters of `insertCeremony`.
    static func values(_ ceremony: PasskeyCeremonyRecord) -> [any SQLBindable] {
        [ceremony.challengeHash, ceremony.kind.rawValue, ceremony.userID, ceremony.binding, ceremony.context, ceremony.createdAt,
         ceremony.expiresAt]
    }

    /// See `PasskeyStore.insertPasskey(_:notice:)`.
    public func insertPasskey(_ passkey: PasskeyRecord, notice: OutboxMessageRecord?) throws {
        try database.transaction { db in
            try db.run(Self.insert, [passkey.id, passkey.userID, passkey.publicKey, passkey.signCount, passkey.backupEligible,
                                     passkey.backupState, try StringList.json(passkey.transports), passkey.name, passkey.createdAt,
                                     passkey.lastUsedAt, passkey.flaggedAt])
            if let notice { try SQLMailOutbox.enqueue(notice, on: db) }
        }
    }

    /// See `PasskeyStore.passkey(id:)`.
    public func passkey(id: [UInt8]) throws -> PasskeyRecord? {
        try database.read { db in try db.one(Self.byID, [id], Self.decode) }
    }

    /// See `PasskeyStore.passkeys(userID:)`.
    public func passkeys(userID: String) throws -> [PasskeyRecord] {
        try database.read { db in try db.query(Self.byUser, [userID], Self.decode) }
    }

    /// See `PasskeyStore.recordPasskeyUse(id:signCount:backupState:at:)`.
    public func recordPasskeyUse(id: [UInt8], signCount: Int64, backupState: Bool, at: Date) throws -> Bool {
        try database.write { db in try db.one(Self.use, [id, signCount, backupState, at]) { _ in true } ?? false }
    }

    /// See `PasskeyStore.flagPasskey(id:at:)`.
    @discardableResult
    public func flagPasskey(id: [UInt8], at: Date) throws -> Bool {
        try database.write { db in try db.run(Self.flag, [id, at]) } > 0
    }

    /// See `PasskeyStore.renamePasskey(id:userID:name:)`.
    public func renamePasskey(id: [UInt8], userID: String, name: String) throws -> Bool {
        try database.write { db in try db.run(Self.rename, [id, userID, name]) } > 0
    }

    /// See `PasskeyStore.deletePasskey(id:userID:)`.
    public func deletePasskey(id: [UInt8], userID: String) throws -> Bool {
        try database.write { db in try db.run(Self.delete, [id, userID]) } > 0
    }

    /// See `PasskeyStore.insertCeremony(_:)`.
    public func insertCeremony(_ ceremony: PasskeyCeremonyRecord) throws {
        try database.write { db in try db.run(Self.insertCeremony, Self.values(ceremony)) }
    }

    /// See `PasskeyStore.insertCeremony(_:maximumRows:)`.
    public func insertCeremony(_ ceremony: PasskeyCeremonyRecord, maximumRows: Int) throws -> Bool {
        try database.transaction { db in
            let count = { try db.one(Self.countCeremonies, []) { Int(try $0.int64(0)) } ?? 0 }
            if try count() >= maximumRows {
                try db.run(Self.removeSpentCeremonies, [ceremony.createdAt])
                guard try count() < maximumRows else { return false }
            }
            try db.run(Self.insertCeremony, Self.values(ceremony))
            return true
        }
    }

    /// See `PasskeyStore.consumeCeremony(challengeHash:kind:now:)`.
    public func consumeCeremony(challengeHash: [UInt8], kind: PasskeyCeremonyRecord.Kind, now: Date) throws -> PasskeyCeremonyRecord? {
        try database.write { db in try db.one(Self.consumeCeremony, [now, challengeHash, kind.rawValue], Self.decodeCeremony) }
    }
}
