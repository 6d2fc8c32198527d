import Foundation
import SignetStore

/// Email challenges over a SQL database (`email_challenges`).
///
/// Answering is one conditional `UPDATE … RETURNING`: the unused, unexpired, not-out-of-attempts
/// conditions are in its `WHERE`, which PostgreSQL re-checks on the newest row version when it
/// waits on a row a racing answer just wrote (READ COMMITTED), and SQLite has one writer; so of
/// racing answers exactly one sees the row unused, and no more than `maxAttempts` are counted.
public struct SQLEmailChallengeStore: EmailChallengeStore {
    let database: any SQLDatabase
    /// The audit chain's key, for the event appended with a challenge.
    let keying: AuditChainKeying

    static let columns = """
        id, purpose, email, user_id, code_hash, link_hash, browser_hash, sealed_request, attempts, created_at, expires_at, consumed_at
        """
    static let insert = SQLTemplate.insert(into: "email_challenges", columns)
    static let byID = "SELECT \(columns) FROM email_challenges WHERE id = $1"
    static let byLink = "SELECT \(columns) FROM email_challenges WHERE link_hash = $1"
    /// A code: counts the attempt, and uses the challenge when the hash matches.
    static let answerCode = """
        UPDATE email_challenges
        SET attempts = attempts + 1, consumed_at = CASE WHEN code_hash = $3 THEN $2 ELSE NULL END
        WHERE id = $1 AND purpose = $4 AND consumed_at IS NULL AND expires_at > $2 AND attempts < $5
        RETURNING \(columns)
        """
    /// A link: uses the challenge.
    static let answerLink = """
        UPDATE email_challenges SET consumed_at = $2
        WHERE link_hash = $1 AND purpose = $3 AND consumed_at IS NULL AND expires_at > $2 AND attempts < $4
        RETURNING \(columns)
        """

    static func decode(_ row: any SQLRow) throws -> EmailChallengeRecord {
        let purposeText = try row.text(1)
        guard let purpose = EmailChallengePurpose(rawValue: purposeText) else {
            throw StoreError.corrupt("email_challenges.purpose \(purposeText)")
        }
        return EmailChallengeRecord(
            id: try row.text(0), purpose: purpose, email: try row.text(2), userID: row.optionalText(3),
            codeHash: try row.blob(4), linkHash: try row.blob(5), browserHash: try row.optionalBlob(6),
            sealedRequest: try row.optionalBlob(7), attempts: Int(try row.int64(8)), createdAt: try row.date(9),
            expiresAt: try row.date(10), consumedAt: try row.optionalDate(11))
    }

    /// See `EmailChallengeStore.insertChallenge(_:mail:newUser:audit:)`. The user row goes first, so
    /// an address taken by a racing sign-up fails (`.duplicate`) before anything else is written.
    public func insertChallenge(_ challenge: EmailChallengeRecord, mail: OutboxMessageRecord?, newUser: UserRecord?,
                                audit: AuditEvent?) throws {
        let c = challenge
        try database.transaction { db in
            if let newUser { try SQLUserStore.insertUserRow(newUser, db) }
            try db.run(Self.insert, [c.id, c.purpose.rawValue, c.email, c.userID, c.codeHash, c.linkHash, c.browserHash,
                                     c.sealedRequest, c.attempts, c.createdAt, c.expiresAt, c.consumedAt])
            if let mail { try SQLMailOutbox.enqueue(mail, on: db) }
            if let audit { try SQLAuditLog.append(audit, on: db, keying: keying) }
        }
    }

    /// See `EmailChallengeStore.challenge(id:)`.
    public func challenge(id: String) throws -> EmailChallengeRecord? {
        try database.read { db in try db.one(Self.byID, [id], Self.decode) }
    }

    /// See `EmailChallengeStore.challenge(linkHash:)`.
    public func challenge(linkHash: [UInt8]) throws -> EmailChallengeRecord? {
        try database.read { db in try db.one(Self.byLink, [linkHash], Self.decode) }
    }

    /// See `EmailChallengeStore.answer(id:purpose:codeHash:maxAttempts:now:)`.
    public func answer(id: String, purpose: EmailChallengePurpose, codeHash: [UInt8], maxAttempts: Int,
                       now: Date) throws -> EmailCodeOutcome {
        let row = try database.write { db in
            try db.one(Self.answerCode, [id, now, codeHash, purpose.rawValue, maxAttempts], Self.decode)
        }
        guard let row else { return .dead }
        if row.consumedAt != nil { return .accepted(row) }
        return .wrong(attemptsLeft: max(0, maxAttempts - row.attempts))
    }

    /// See `EmailChallengeStore.answer(linkHash:purpose:maxAttempts:now:)`.
    public func answer(linkHash: [UInt8], purpose: EmailChallengePurpose, maxAttempts: Int, now: Date) throws -> EmailChallengeRecord? {
        try database.write { db in try db.one(Self.answerLink, [linkHash, now, purpose.rawValue, maxAttempts], Self.decode) }
    }
}
