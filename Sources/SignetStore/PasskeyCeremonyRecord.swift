import Foundation
import SignetMacros

/// An issued WebAuthn challenge waiting for its response: stored under a keyed hash of the
/// challenge, used once, for a few minutes.
@MemberwiseInit
public struct PasskeyCeremonyRecord: Sendable, Equatable {
    /// Which ceremony the challenge was issued for.
    public enum Kind: String, Sendable, CaseIterable {
        /// `navigator.credentials.create` for a signed-in user.
        case registration
        /// `navigator.credentials.get` on the sign-in page of a pending authorization request.
        case assertion
    }

    /// The keyed hash of the challenge.
    public var challengeHash: [UInt8]
    /// The ceremony.
    public var kind: Kind
    /// Registration: the account the credential will belong to; nil for an assertion.
    public var userID: String?
    /// What the response must come with: a keyed hash of the session (registration) or of the
    /// browser's CSRF value and the pending request (assertion).
    public var binding: [UInt8]
    /// Assertion: the pending authorization request's handle it continues; registration: where to
    /// go afterwards. Never shown to another browser (it is only read back with the binding).
    public var context: String
    /// When it was issued.
    public var createdAt: Date
    /// When it stops being usable.
    public var expiresAt: Date
}
