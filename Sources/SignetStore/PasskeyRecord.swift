import Foundation
import SignetMacros

/// A registered WebAuthn credential (a passkey) of a local account: what W3C WebAuthn §4 calls a
/// credential record, as Signet stores it.
@MemberwiseInit
public struct PasskeyRecord: Sendable, Equatable {
    /// The credential id (1 to 1023 bytes); unique across all users.
    public var id: [UInt8]
    /// The account it signs in (`users.id`).
    public var userID: String
    /// The credential public key as COSE_Key bytes, exactly as registered.
    public var publicKey: [UInt8]
    /// The last signature counter seen (0 for authenticators that do not count).
    public var signCount: Int64
    /// BE: the credential may be synced; fixed for its lifetime.
    public var backupEligible: Bool
    /// BS: backed up at the last use.
    public var backupState: Bool
    /// The transports the browser reported at registration.
    public var transports: [String]
    /// The name the user gave it (shown on /account/passkeys).
    public var name: String
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in, or nil.
    public var lastUsedAt: Date? = nil
    /// When an assertion came with a counter that did not increase (a possible clone, W3C
    /// WebAuthn §7.2 step 22); a flagged credential is refused until it is removed.
    public var flaggedAt: Date? = nil
}
