import Foundation

/// Local accounts and their links to upstream identities.
public protocol UserStore: Sendable {
    /// Stores a new user; the email is lowercased. Throws `.duplicate` if the id or the email is taken.
    func insertUser(_ user: UserRecord) throws

    /// The user with this id, or nil.
    func user(id: String) throws -> UserRecord?

    /// Whether grant `grantID` is active at `now` (as `RefreshTokenStore.isGrantActive`) and, if it
    /// is, the user with id `id`, read in one read transaction: a bearer access token's check on
    /// every userinfo and admin request needs both.
    func user(id: String, ifGrantActive grantID: String, now: Date) throws -> (grantActive: Bool, user: UserRecord?)

    /// The user with this email (compared lowercased), or nil.
    func user(email: String) throws -> UserRecord?

    /// Every user, ordered by email.
    func allUsers() throws -> [UserRecord]

    /// One page of users ordered by id: at most `limit`, after `afterID` (nil: from the first),
    /// whose email or name contains `matching` (ASCII letters compared case-insensitively; nil:
    /// every user). Read from the store a page at a time, however many users there are.
    func users(after afterID: String?, matching: String?, limit: Int) throws -> [UserRecord]

    /// Replaces the password hash (nil removes the password). Throws `.notFound` for an unknown id.
    func setPassword(userID: String, passwordHash: String?, now: Date) throws

    /// Disables the user at `disabledAt`, or enables it when nil. Throws `.notFound` for an unknown id.
    /// Ending sessions and revoking grants is the caller's job (`SessionStore`, `RefreshTokenStore`).
    func setDisabled(userID: String, disabledAt: Date?, now: Date) throws

    /// Replaces the profile claims and email-verified flag. Throws `.notFound` for an unknown id.
    func updateProfile(userID: String, name: String?, givenName: String?, familyName: String?,
                       emailVerified: Bool, now: Date) throws

    /// Changes the user's email from `from` to `to` (already normalised) and marks it verified, and
    /// stores `notice` (the mail to the old address) in the same transaction: both or neither.
    /// False (nothing changes) when there is no such user or its email is no longer `from`.
    /// Throws `.duplicate` (nothing changes) when another account has `to`.
    func changeEmail(userID: String, from: String, to: String, now: Date, notice: OutboxMessageRecord?) throws -> Bool

    /// Links an upstream identity to a user. Throws `.duplicate` if (connection, issuer, subject) is
    /// already linked, `.notFound` if the user does not exist.
    func insertFederatedIdentity(_ identity: FederatedIdentityRecord) throws

    /// Stores a new user and its first upstream identity in one transaction: both or neither.
    /// `identity.userID` must be `user.id`. Throws `.duplicate` (and stores nothing) if the
    /// user's id or email is taken or (connection, issuer, subject) is already linked, so two
    /// concurrent first sign-ins of one identity leave one user and one link, never an orphan.
    func insertUser(_ user: UserRecord, withFederatedIdentity identity: FederatedIdentityRecord) throws

    /// The link for (connection, issuer, subject), or nil.
    func federatedIdentity(connectionID: String, issuer: String, subject: String) throws -> FederatedIdentityRecord?

    /// Every link of a user, oldest first.
    func federatedIdentities(userID: String) throws -> [FederatedIdentityRecord]

    /// Removes the user's links through `connectionID`; returns how many there were.
    func deleteFederatedIdentities(userID: String, connectionID: String) throws -> Int

    /// Keeps an upstream token for a linked identity (only sealed: the caller encrypts it), so it
    /// can be revoked at the provider when the account is deleted; nil forgets it. Returns false
    /// when there is no such link.
    @discardableResult
    func setUpstreamToken(connectionID: String, issuer: String, subject: String, sealed: [UInt8]?) throws -> Bool

    /// The sealed upstream tokens kept for the user's links, with the link they belong to.
    func upstreamTokens(userID: String) throws -> [(identity: FederatedIdentityRecord, sealed: [UInt8])]

    /// Deletes the user and everything that names it, in one transaction: links, sessions,
    /// consents, authorization codes, grants and their refresh tokens. False if there was no
    /// such user (nothing changes).
    func deleteUser(id: String) throws -> Bool
}
