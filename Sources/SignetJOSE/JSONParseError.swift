/// Why `JSONValue.parse` rejected its input.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: Sendable, Equatable {
        /// Not valid JSON syntax (including trailing data after the value).
        case syntax
        /// An object repeats a member name (RFC 8259 §4 leaves this undefined; Signet rejects it).
        case duplicateKey
        /// Arrays and objects are nested deeper than the limit.
        case tooDeep
        /// A string is not valid UTF-8 or contains a lone surrogate escape.
        case invalidString
        /// A number is not finite as a Double (e.g. `1e400`).
        case numberOutOfRange
    }

    /// The kind of problem.
    public let kind: Kind
    /// Byte offset in the input at which the problem was found.
    public let offset: Int

    /// Creates an error.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// E.g. `JSON duplicateKey at byte 17`.
    public var description: String { "JSON \(kind) at byte \(offset)" }
}
