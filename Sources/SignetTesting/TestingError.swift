/// A failure of the test support itself (a server that would not start, a binary that is missing,
/// a form that is not on the page), with a message that says what to do.
public struct TestingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
