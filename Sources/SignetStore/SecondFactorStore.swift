import Foundation
import SignetMacros

/// A user's authenticator-app factor (TOTP, RFC 6238): the secret only sealed (the store never
/// sees it), whether it was confirmed with a first code, and the last step a code was accepted
/// for, so that no step is accepted twice.
@MemberwiseInit
public struct TOTPFactorRecord: Sendable, Equatable {
    /// The user.
    public var userID: String
    /// The secret, sealed by the caller (AES-256-GCM under a master-key subkey).
    public var sealedSecret: [UInt8]
    /// When the enrolment was started (the secret shown).
    public var createdAt: Date
    /// When a first code confirmed it; nil while the enrolment is unfinished.
    public var confirmedAt: Date? = nil
    /// The step of the last accepted code, or nil.
    public var lastUsedStep: Int64? = nil
    /// Wrong codes in a row since the last accepted one (NIST SP 800-63B §5.2.2).
    public var failedAttempts: Int = 0
    /// When `failedAttempts` reached the lock limit: no TOTP code is accepted until a recovery
    /// code or an operator unlocks the factor.
    public var lockedAt: Date? = nil

    /// Whether the factor is in use (confirmed).
    public var isConfirmed: Bool { confirmedAt != nil }
    /// Whether the factor is locked.
    public var isLocked: Bool { lockedAt != nil }
}

/// Second factors: one TOTP factor per user and its single-use recovery codes (stored as keyed
/// hashes). Every "use" is one conditional statement, so of racing uses exactly one wins.
public protocol SecondFactorStore: Sendable {
    /// The user's TOTP factor, confirmed or not, or nil.
    func totpFactor(userID: String) throws -> TOTPFactorRecord?

    /// Stores an unconfirmed factor, replacing an unconfirmed one of the same user. Returns false
    /// and changes nothing when the user has a confirmed factor.
    func putUnconfirmedTOTP(_ factor: TOTPFactorRecord) throws -> Bool

    /// Confirms the unconfirmed factor whose sealed secret is `sealedSecret` (the one the user saw)
    /// with the step of its first code, and replaces the user's recovery codes with
    /// `recoveryCodeHashes`, in one transaction. False, changing nothing, when there is no such
    /// unconfirmed factor (already confirmed, replaced by a newer enrolment, removed).
    func confirmTOTP(userID: String, sealedSecret: [UInt8], step: Int64, at: Date, recoveryCodeHashes: [[UInt8]]) throws -> Bool

    /// Accepts `step` for the confirmed, unlocked factor only if it is later than the last
    /// accepted one (RFC 6238 §5.2: a code is good once), and clears the count of wrong codes.
    /// True when this call recorded it.
    func useTOTPStep(userID: String, step: Int64) throws -> Bool

    /// Counts one wrong code against the confirmed factor and locks it (`lockedAt` = `at`) when
    /// the count reaches `limit`, in one statement; returns the new count (0 without a confirmed
    /// factor). Exactly one call sees the count equal `limit`: that call locked it.
    func recordTOTPFailure(userID: String, lockAfter limit: Int, at: Date) throws -> Int

    /// Clears the lock and the count of wrong codes. True when the factor was locked.
    func unlockTOTP(userID: String) throws -> Bool

    /// Uses an unused recovery code once. True when this call used it.
    func useRecoveryCode(userID: String, codeHash: [UInt8], at: Date) throws -> Bool

    /// How many of the user's recovery codes are unused.
    func unusedRecoveryCodes(userID: String) throws -> Int

    /// Replaces every recovery code of a user with a confirmed factor. False (nothing changed)
    /// when the user has none.
    func replaceRecoveryCodes(userID: String, hashes: [[UInt8]], at: Date) throws -> Bool

    /// Removes the TOTP factor and the recovery codes. True when there was a factor.
    @discardableResult
    func removeSecondFactors(userID: String) throws -> Bool
}
