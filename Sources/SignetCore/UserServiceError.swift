/// Why a user operation was refused (a taken email, a weak password, an unknown user).
public struct UserServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checks on what a person types whose refusal a page shows in its own language: each
    /// case is a key of the server's `ValidationText` table (English and German).
    public enum Reason: String, Sendable, CaseIterable {
        case emailTooLong, emailLocalNotASCII, emailInvalid, emailDomainInvalid
        case passwordTooShort, passwordTooLong, passwordNUL, passwordCommon
    }

    /// What was wrong, safe to show (it never contains the password), in English (the CLI's words).
    public let message: String
    /// Which check refused it, for a page to say in the reader's language; nil for the rest.
    public let reason: Reason?
    /// Creates the error.
    public init(_ message: String, reason: Reason? = nil) {
        self.message = message
        self.reason = reason
    }
    /// The message.
    public var description: String { message }
}
