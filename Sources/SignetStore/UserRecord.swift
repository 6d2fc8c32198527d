import Foundation
import SignetMacros

/// A local account.
@MemberwiseInit
public struct UserRecord: Sendable, Equatable {
    /// Stable subject identifier (`sub`); never reused.
    public var id: String
    /// Email address, lowercased by the store on write and lookup; unique.
    public var email: String
    /// Whether the email address has been verified.
    public var emailVerified: Bool = false
    /// Password hash in PHC string format (Argon2id), or nil for accounts without a password.
    public var passwordHash: String? = nil
    /// Full name (`name` claim).
    public var name: String? = nil
    /// `given_name` claim.
    public var givenName: String? = nil
    /// `family_name` claim.
    public var familyName: String? = nil
    /// When the account was disabled, or nil if it is enabled.
    public var disabledAt: Date? = nil
    /// When the account was created.
    public var createdAt: Date
    /// When the account was last changed.
    public var updatedAt: Date
}

extension UserRecord: CustomStringConvertible {
    /// Describes the user without email or password hash.
    public var description: String {
        "UserRecord(id: \(id), email: <redacted>, passwordHash: \(passwordHash == nil ? "nil" : "<redacted>"), disabled: \(disabledAt != nil))"
    }
}
