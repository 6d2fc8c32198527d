/// A mock provider could not start.
public struct MockProviderError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
