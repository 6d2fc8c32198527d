import Foundation

/// Email challenges (sign-up verification, password reset, email sign-in): issued with the mail
/// that carries them, answered once by a code or a link.
///
/// Contract: a challenge is answered at most once, by whichever of many concurrent answers the
/// store admits first; a code is tried at most `maxAttempts` times in all (wrong ones count,
/// across callers and nodes); nothing is answered at or after `expiresAt`.
public protocol EmailChallengeStore: Sendable {
    /// Stores a new challenge and, when given, its mail in the outbox, the new user the challenge
    /// verifies (a sign-up) and an audit event, in one transaction: all or nothing, one commit.
    /// Throws `.duplicate` if the id or link hash exists, or the user's id or email is taken.
    func insertChallenge(_ challenge: EmailChallengeRecord, mail: OutboxMessageRecord?, newUser: UserRecord?, audit: AuditEvent?) throws

    /// The challenge with this id, used or not, or nil.
    func challenge(id: String) throws -> EmailChallengeRecord?

    /// The challenge whose link token hashes to `linkHash`, used or not, or nil.
    func challenge(linkHash: [UInt8]) throws -> EmailChallengeRecord?

    /// One code submission, as one atomic step: when the challenge is unused, unexpired at `now`,
    /// of `purpose`, and has fewer than `maxAttempts` attempts, counts the attempt and, when
    /// `codeHash` matches, marks it used at `now`.
    func answer(id: String, purpose: EmailChallengePurpose, codeHash: [UInt8], maxAttempts: Int, now: Date) throws -> EmailCodeOutcome

    /// Uses the challenge of a link: the record for exactly one caller when it is unused,
    /// unexpired, of `purpose`, and not out of attempts; nil otherwise.
    func answer(linkHash: [UInt8], purpose: EmailChallengePurpose, maxAttempts: Int, now: Date) throws -> EmailChallengeRecord?
}

extension EmailChallengeStore {
    /// A challenge and its mail, in one transaction (no user, no audit event).
    public func insertChallenge(_ challenge: EmailChallengeRecord, mail: OutboxMessageRecord?) throws {
        try insertChallenge(challenge, mail: mail, newUser: nil, audit: nil)
    }
}
