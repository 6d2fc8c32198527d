import Foundation

/// Passkeys (WebAuthn credentials) and the challenges issued for their ceremonies.
public protocol PasskeyStore: Sendable {
    /// Stores a new credential and, in the same transaction, `notice` in the mail outbox (the
    /// "a passkey was added" mail). Throws `.duplicate` if its id is registered already (to
    /// anyone); then nothing is stored.
    func insertPasskey(_ passkey: PasskeyRecord, notice: OutboxMessageRecord?) throws

    /// The credential with this id, or nil.
    func passkey(id: [UInt8]) throws -> PasskeyRecord?

    /// The user's credentials, oldest first.
    func passkeys(userID: String) throws -> [PasskeyRecord]

    /// Records a successful assertion, atomically against concurrent ones: sets the counter, BS
    /// and the last use, only if the credential is not flagged and `signCount` is greater than
    /// the stored counter (or both are 0: an authenticator that does not count). False when that
    /// did not hold (nothing changed).
    func recordPasskeyUse(id: [UInt8], signCount: Int64, backupState: Bool, at: Date) throws -> Bool

    /// Flags the credential (a counter went backwards); true if it was not flagged yet.
    @discardableResult
    func flagPasskey(id: [UInt8], at: Date) throws -> Bool

    /// Renames the user's credential; false when the user has no credential with this id.
    func renamePasskey(id: [UInt8], userID: String, name: String) throws -> Bool

    /// Deletes the user's credential; false when the user has no credential with this id.
    func deletePasskey(id: [UInt8], userID: String) throws -> Bool

    /// Stores an issued challenge. Throws `.duplicate` if the hash exists.
    func insertCeremony(_ ceremony: PasskeyCeremonyRecord) throws

    /// Stores an issued challenge while the table holds fewer than `maximumRows` rows, first
    /// removing the expired and used ones (at `ceremony.createdAt`) when it is full; false, and
    /// nothing stored, when it is still full. One transaction: the table never grows past the
    /// bound by more than the writers running at once.
    func insertCeremony(_ ceremony: PasskeyCeremonyRecord, maximumRows: Int) throws -> Bool

    /// Uses the challenge atomically: returns it for exactly one call if it exists, is of `kind`,
    /// unused and `now < expiresAt`; nil otherwise.
    func consumeCeremony(challengeHash: [UInt8], kind: PasskeyCeremonyRecord.Kind, now: Date) throws -> PasskeyCeremonyRecord?
}

extension PasskeyStore {
    /// Stores a new credential without a notice.
    public func insertPasskey(_ passkey: PasskeyRecord) throws { try insertPasskey(passkey, notice: nil) }
}
