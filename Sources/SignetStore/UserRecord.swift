import Foundation

/// A local account.
public struct UserRecord: Sendable, Equatable {
    /// Stable subject identifier (`sub`); never reused.
    public var id: String
    /// Email address, lowercased by the store on write and lookup; unique.
    public var email: String
    /// Whether the email address has been verified.
    public var emailVerified: Bool
    /// Password hash in PHC string format (Argon2id), or nil for accounts without a password.
    public var passwordHash: String?
    /// Full name (`name` claim).
    public var name: String?
    /// `given_name` claim.
    public var givenName: String?
    /// `family_name` claim.
    public var familyName: String?
    /// When the account was disabled, or nil if it is enabled.
    public var disabledAt: Date?
    /// When the account was created.
    public var createdAt: Date
    /// When the account was last changed.
    public var updatedAt: Date

    /// Creates a record.
    public init(id: String, email: String, emailVerified: Bool = false, passwordHash: String? = nil,
                name: String? = nil, givenName: String? = nil, familyName: String? = nil,
                disabledAt: Date? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.email = email
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.disabledAt = disabledAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension UserRecord: CustomStringConvertible {
    /// Describes the user without email or password hash.
    public var description: String {
        "UserRecord(id: \(id), email: <redacted>, passwordHash: \(passwordHash == nil ? "nil" : "<redacted>"), disabled: \(disabledAt != nil))"
    }
}
