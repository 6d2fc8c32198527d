/// Why a user could not be created or changed.
public struct UserServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, safe to show (it never contains the password).
    public let message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
