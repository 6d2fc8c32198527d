import Foundation
import SignetMacros

/// What an email challenge proves when it is answered.
public enum EmailChallengePurpose: String, Sendable, CaseIterable, Codable {
    /// The address of a new (or changed) account is the user's.
    case verifyEmail = "verify_email"
    /// The user may choose a new password.
    case resetPassword = "reset_password"
    /// The user signs in without a password.
    case signIn = "sign_in"
    /// A signed-in user's new address (the challenge's `email`) becomes the account's.
    case changeEmail = "change_email"
}

/// One challenge mailed to an address: a 6-digit code and a link, either of which answers it
/// once. Only keyed hashes of the code and the link token are stored.
@MemberwiseInit
public struct EmailChallengeRecord: Sendable, Equatable {
    /// The public handle of the challenge (in the code page's URL); not a secret.
    public var id: String
    /// What answering it does.
    public var purpose: EmailChallengePurpose
    /// The normalised address the mail went to.
    public var email: String
    /// The account it acts on; nil for a challenge that can never succeed (an address without an
    /// account gets one too, so the answer looks the same).
    public var userID: String?
    /// Keyed hash of the code, bound to `id`.
    public var codeHash: [UInt8]
    /// Keyed hash of the link token.
    public var linkHash: [UInt8]
    /// Keyed hash of the browser-binding value of the browser that asked, or nil.
    public var browserHash: [UInt8]?
    /// The pending authorization request to continue, sealed by the server, or nil.
    public var sealedRequest: [UInt8]?
    /// Wrong codes entered so far.
    public var attempts: Int = 0
    /// When it was made.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date
    /// When it was answered, or nil.
    public var consumedAt: Date? = nil
}

extension EmailChallengeRecord: CustomStringConvertible {
    /// Describes the challenge without its address or hashes.
    public var description: String {
        "EmailChallengeRecord(id: \(id), purpose: \(purpose.rawValue), email: <redacted>, attempts: \(attempts))"
    }
}

/// What one code submission did.
public enum EmailCodeOutcome: Sendable, Equatable {
    /// The code was right and the challenge is now used: this caller, and only this one, acts.
    case accepted(EmailChallengeRecord)
    /// The code was wrong; `attemptsLeft` more may be tried (0: the challenge is now dead).
    case wrong(attemptsLeft: Int)
    /// Unknown, expired, already used or out of attempts: nothing was counted.
    case dead
}
