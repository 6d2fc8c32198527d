import Foundation
import SignetCrypto
import SignetJOSE
import SignetStore

/// Local accounts: creation, passwords (Argon2id with the configured cost), verification and
/// disabling. Used by `signet users` and by the sign-in page.
public final class UserService: Sendable {
    /// The store.
    public let storage: any SignetStorage
    /// The Argon2id cost of new hashes.
    public let passwordParameters: Argon2idParameters
    let clock: any Clock
    private let random: any RandomSource
    /// What an unknown email's password is verified against (`Argon2id.unmatchable`): a
    /// verification as costly as a real one, matched by nothing, made without hashing.
    private let dummy: String
    /// Records what changes (actor `cli` under `signet users`).
    public let auditor: Auditor

    /// Longest password accepted, in bytes (bounds the work an attacker can ask for).
    public static let maximumPasswordBytes = 1024
    /// Shortest password accepted when one is set (NIST SP 800-63B §5.1.1.2).
    public static let minimumPasswordLength = 8

    /// Creates the service.
    public init(storage: any SignetStorage, passwordParameters: Argon2idParameters, clock: any Clock, random: any RandomSource,
                auditContext: @escaping @Sendable () -> AuditContext? = { AuditContext.current }) {
        self.storage = storage
        self.auditor = Auditor(log: storage.audit, clock: clock, context: auditContext)
        self.passwordParameters = passwordParameters
        self.clock = clock
        self.random = random
        self.dummy = Argon2id.unmatchable(parameters: passwordParameters, random: random.bytes)
    }

    /// The normalised address (`EmailAddress.normalize`: trimmed, lowercased, checked).
    public static func normalizeEmail(_ raw: String) throws(UserServiceError) -> String {
        try EmailAddress.normalize(raw)
    }

    /// Checks a new password (NIST SP 800-63B §3.1.1.2): at least 8 characters, at most 1024
    /// bytes, no NUL, not on the common-password list; no composition rules.
    public static func checkNewPassword(_ password: String) throws(UserServiceError) {
        guard password.count >= minimumPasswordLength else {
            throw UserServiceError("the password must have at least \(minimumPasswordLength) characters", reason: .passwordTooShort)
        }
        guard password.utf8.count <= maximumPasswordBytes else { throw UserServiceError("the password is too long", reason: .passwordTooLong) }
        guard !password.utf8.contains(0) else { throw UserServiceError("the password must not contain NUL", reason: .passwordNUL) }
        guard !CommonPasswords.contains(password) else {
            throw UserServiceError("this password is one of the most commonly used; choose another", reason: .passwordCommon)
        }
    }

    /// Creates a user with a new random, stable `sub`. Throws `UserServiceError` for a bad email
    /// or password or an email that is taken.
    public func create(email rawEmail: String, name: String? = nil, password: String?) throws -> UserRecord {
        let user = try newUser(email: rawEmail, name: name, password: password)
        do { try storage.users.insertUser(user) } catch StoreError.duplicate {
            throw UserServiceError("a user with this email already exists")
        }
        return user
    }

    /// A new user's record, not stored: the address normalized, the password checked and hashed
    /// (Argon2id with the configured cost), a new random, stable `sub`. The caller stores it in its
    /// own transaction (`create`; a sign-up, with its challenge, mail and audit event; the sign-up
    /// through an invitation, in the acceptance's transaction).
    public func newUser(email rawEmail: String, name: String? = nil, password: String?, emailVerified: Bool = false) throws -> UserRecord {
        let email = try UserService.normalizeEmail(rawEmail)
        var hash: String?
        if let password {
            try UserService.checkNewPassword(password)
            hash = try Argon2id.hash(password: password, parameters: passwordParameters)
        }
        let now = clock.now
        let trimmedName = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        return UserRecord(id: Base64URL.encode(random.bytes(16)), email: email, emailVerified: emailVerified, passwordHash: hash,
                          name: trimmedName?.isEmpty == false ? trimmedName : nil, createdAt: now, updatedAt: now)
    }

    /// A user by id or by email.
    public func find(_ idOrEmail: String) throws -> UserRecord? {
        if let user = try storage.users.user(id: idOrEmail) { return user }
        guard let email = try? UserService.normalizeEmail(idOrEmail) else { return nil }
        return try storage.users.user(email: email)
    }

    /// Every user, ordered by email.
    public func all() throws -> [UserRecord] { try storage.users.allUsers() }

    /// Replaces a user's password, then ends every session of the user, deletes its codes not yet
    /// redeemed, and revokes every grant family (reason `password_changed`): whoever knew the old password, or holds a session or a
    /// refresh token obtained with it, is out (RFC 9700 §4.14.2 leaves the trigger to the server;
    /// a password change is the user saying the old credential is no longer theirs). The new hash
    /// is stored first, so a sign-in racing the change cannot outlive it. Returns the counts.
    /// (Re-hashing at sign-in with new cost parameters stores the same password and ends nothing.)
    @discardableResult
    public func setPassword(userID: String, password: String) throws -> (sessions: Int, grants: Int) {
        try UserService.checkNewPassword(password)
        let hash = try Argon2id.hash(password: password, parameters: passwordParameters)
        let now = clock.now
        do { try storage.users.setPassword(userID: userID, passwordHash: hash, now: now) } catch StoreError.notFound {
            throw UserServiceError("no such user")
        }
        return try endEverything(userID: userID, reason: RevokeReason.passwordChanged, event: "password_changed", now: now)
    }

    /// Checks an email and password. Returns the user only when it exists, is enabled, has a
    /// password and the password matches. Always runs exactly one Argon2id verification, against
    /// a string with the configured cost that nothing matches when there is no real hash, so an
    /// unknown email takes as long as a wrong password.
    public func authenticate(email rawEmail: String, password: String) throws -> UserRecord? {
        let user = try (try? UserService.normalizeEmail(rawEmail)).flatMap { try storage.users.user(email: $0) }
        let acceptable = password.utf8.count <= UserService.maximumPasswordBytes && !password.utf8.contains(0)
        let stored = acceptable ? user?.passwordHash : nil
        let matches = Argon2id.verify(password: acceptable ? password : "", phc: stored ?? dummy)
        guard let user, stored != nil, matches, user.disabledAt == nil else { return nil }
        if let stored, Argon2id.needsRehash(phc: stored, parameters: passwordParameters),
           let rehashed = try? Argon2id.hash(password: password, parameters: passwordParameters) {
            try? storage.users.setPassword(userID: user.id, passwordHash: rehashed, now: clock.now)
        }
        return user
    }

    /// Disables a user: ends every session and revokes every grant family (so refresh tokens
    /// fail, and access tokens fail wherever the grant is checked). Returns the counts.
    @discardableResult
    public func disable(userID: String) throws -> (sessions: Int, grants: Int) {
        let now = clock.now
        do { try storage.users.setDisabled(userID: userID, disabledAt: now, now: now) } catch StoreError.notFound {
            throw UserServiceError("no such user")
        }
        return try endEverything(userID: userID, reason: RevokeReason.userDisabled, event: "user_disabled", now: now)
    }

    /// Ends every session, unredeemed code and grant family of the user, who stays enabled (an
    /// operator's "sign out everywhere"). Returns the counts.
    @discardableResult
    public func revokeSessionsAndTokens(userID: String) throws -> (sessions: Int, grants: Int) {
        guard try storage.users.user(id: userID) != nil else { throw UserServiceError("no such user") }
        return try endEverything(userID: userID, reason: RevokeReason.adminRevoked, event: "user_sessions_revoked", now: clock.now)
    }

    /// Ends what the user's old credential or account state let anyone hold: every session, every
    /// unredeemed code and every grant family (revoked with `reason`); then audits `event`.
    /// Returns the counts.
    private func endEverything(userID: String, reason: String, event: String, now: Date) throws -> (sessions: Int, grants: Int) {
        let sessions = try storage.sessions.endSessions(userID: userID, now: now)
        try storage.codes.deleteUnredeemedCodes(userID: userID)
        let grants = try storage.refreshTokens.revokeGrants(userID: userID, reason: reason, now: now)
        auditor.record(event, subject: userID, detail: ["sessions": .number(Double(sessions)), "grants": .number(Double(grants))])
        return (sessions, grants)
    }

    /// Records `event` about the user; a failure to record never fails the change itself.
    private func audit(_ event: String, userID: String, detail: String = "{}", at now: Date) {
        do { _ = try storage.audit.appendAudit(AuditEvent(event: event, subjectID: userID, clientID: nil, detail: detail, at: now)) } catch {
            Auditor.failures.failed(event, error)
        }
    }

    /// Unlinks the user's identities of one connection; returns how many there were. The next
    /// sign-in through that connection is a new identity again (linking rules apply).
    public func unlink(userID: String, connectionID: String) throws -> Int {
        let removed = try storage.users.deleteFederatedIdentities(userID: userID, connectionID: connectionID)
        if removed > 0 {
            auditor.record("federated_identity_unlinked", subject: userID, method: "fed:\(connectionID)",
                           detail: ["connection": .string(connectionID), "identities": .number(Double(removed))])
        }
        return removed
    }

    /// Enables a disabled user (sessions and tokens ended by disabling stay ended).
    public func enable(userID: String) throws {
        do { try storage.users.setDisabled(userID: userID, disabledAt: nil, now: clock.now) } catch StoreError.notFound {
            throw UserServiceError("no such user")
        }
        auditor.record("user_enabled", subject: userID)
    }
}
