import Foundation
import SignetStore

/// TOTP factors and recovery codes over a SQL database (`totp_factors`, `recovery_codes`).
public struct SQLSecondFactorStore: SecondFactorStore {
    let database: any SQLDatabase

    static let columns = "user_id, sealed_secret, created_at, confirmed_at, last_used_step"
    static let byUser = "SELECT \(columns), failed_attempts, locked_at FROM totp_factors WHERE user_id = $1"
    /// An unconfirmed enrolment may be replaced; a confirmed factor never is (the `WHERE` of the upsert).
    static let putUnconfirmed = """
        INSERT INTO totp_factors (\(columns)) VALUES ($1, $2, $3, NULL, NULL)
        ON CONFLICT (user_id) DO UPDATE SET sealed_secret = excluded.sealed_secret, created_at = excluded.created_at
        WHERE totp_factors.confirmed_at IS NULL
        """
    static let confirm = """
        UPDATE totp_factors SET confirmed_at = $3, last_used_step = $4
        WHERE user_id = $1 AND sealed_secret = $2 AND confirmed_at IS NULL
        """
    /// RFC 6238 §5.2: the step must be later than the last one accepted; racing uses of one
    /// step: the row's write lock lets one update match, the others see the new step and match nothing.
    static let useStep = """
        UPDATE totp_factors SET last_used_step = $2, failed_attempts = 0
        WHERE user_id = $1 AND confirmed_at IS NOT NULL AND locked_at IS NULL AND (last_used_step IS NULL OR last_used_step < $2)
        """
    /// One statement: racing failures each add one, and only the one that reaches the limit locks.
    static let recordFailure = """
        UPDATE totp_factors SET failed_attempts = failed_attempts + 1,
            locked_at = CASE WHEN locked_at IS NULL AND failed_attempts + 1 >= $2 THEN $3 ELSE locked_at END
        WHERE user_id = $1 AND confirmed_at IS NOT NULL
        RETURNING failed_attempts
        """
    static let unlock = "UPDATE totp_factors SET failed_attempts = 0, locked_at = NULL WHERE user_id = $1 AND locked_at IS NOT NULL"
    static let deleteCodes = "DELETE FROM recovery_codes WHERE user_id = $1"
    static let insertCode = "INSERT INTO recovery_codes (user_id, code_hash, created_at, used_at) VALUES ($1, $2, $3, NULL)"
    static let useCode = "UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL"
    static let countUnused = "SELECT COUNT(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL"
    static let confirmedExists = "SELECT user_id FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL {for_update}"
    static let deleteFactor = "DELETE FROM totp_factors WHERE user_id = $1"

    static func decode(_ row: any SQLRow) throws -> TOTPFactorRecord {
        TOTPFactorRecord(userID: try row.text(0), sealedSecret: try row.blob(1), createdAt: try row.date(2),
                         confirmedAt: try row.optionalDate(3), lastUsedStep: try row.optionalInt64(4),
                         failedAttempts: Int(try row.int64(5)), lockedAt: try row.optionalDate(6))
    }

    /// See `SecondFactorStore.totpFactor(userID:)`.
    public func totpFactor(userID: String) throws -> TOTPFactorRecord? {
        try database.read { db in try db.one(Self.byUser, [userID], Self.decode) }
    }

    /// See `SecondFactorStore.putUnconfirmedTOTP(_:)`.
    public func putUnconfirmedTOTP(_ factor: TOTPFactorRecord) throws -> Bool {
        try database.write { db in try db.run(Self.putUnconfirmed, [factor.userID, factor.sealedSecret, factor.createdAt]) == 1 }
    }

    /// See `SecondFactorStore.confirmTOTP(userID:sealedSecret:step:at:recoveryCodeHashes:)`.
    public func confirmTOTP(userID: String, sealedSecret: [UInt8], step: Int64, at: Date, recoveryCodeHashes: [[UInt8]]) throws -> Bool {
        try database.transaction { db in
            guard try db.run(Self.confirm, [userID, sealedSecret, at, step]) == 1 else { return false }
            try Self.writeCodes(userID: userID, hashes: recoveryCodeHashes, at: at, db)
            return true
        }
    }

    /// See `SecondFactorStore.useTOTPStep(userID:step:)`.
    public func useTOTPStep(userID: String, step: Int64) throws -> Bool {
        try database.write { db in try db.run(Self.useStep, [userID, step]) == 1 }
    }

    /// See `SecondFactorStore.recordTOTPFailure(userID:lockAfter:at:)`.
    public func recordTOTPFailure(userID: String, lockAfter limit: Int, at: Date) throws -> Int {
        try database.write { db in try db.one(Self.recordFailure, [userID, Int64(limit), at]) { Int(try $0.int64(0)) } ?? 0 }
    }

    /// See `SecondFactorStore.unlockTOTP(userID:)`.
    public func unlockTOTP(userID: String) throws -> Bool {
        try database.write { db in try db.run(Self.unlock, [userID]) == 1 }
    }

    /// See `SecondFactorStore.useRecoveryCode(userID:codeHash:at:)`.
    public func useRecoveryCode(userID: String, codeHash: [UInt8], at: Date) throws -> Bool {
        try database.write { db in try db.run(Self.useCode, [userID, codeHash, at]) == 1 }
    }

    /// See `SecondFactorStore.unusedRecoveryCodes(userID:)`.
    public func unusedRecoveryCodes(userID: String) throws -> Int {
        try database.read { db in try db.one(Self.countUnused, [userID]) { Int(try $0.int64(0)) } ?? 0 }
    }

    /// See `SecondFactorStore.replaceRecoveryCodes(userID:hashes:at:)`.
    public func replaceRecoveryCodes(userID: String, hashes: [[UInt8]], at: Date) throws -> Bool {
        try database.transaction { db in
            guard try db.one(Self.confirmedExists, [userID], { try $0.text(0) }) != nil else { return false }
            try Self.writeCodes(userID: userID, hashes: hashes, at: at, db)
            return true
        }
    }

    /// See `SecondFactorStore.removeSecondFactors(userID:)`.
    public func removeSecondFactors(userID: String) throws -> Bool {
        try database.transaction { db in
            _ = try db.run(Self.deleteCodes, [userID])
            return try db.run(Self.deleteFactor, [userID]) == 1
        }
    }

    private static func writeCodes(userID: String, hashes: [[UInt8]], at: Date, _ db: any SQLConnection) throws {
        _ = try db.run(deleteCodes, [userID])
        for hash in hashes { _ = try db.run(insertCode, [userID, hash, at]) }
    }
}
