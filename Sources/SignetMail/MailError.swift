/// Why a message could not be built or sent. The text never holds the message, an address or a
/// credential, so it can be logged.
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public let reason: String
    /// True when trying again later may succeed (the server was unreachable, busy, or refused
    /// with a 4xx reply, or the TLS or login set-up failed, which an operator can fix); false when
    /// the server refused the message for good (a 5xx reply to the sender, a recipient or the data).
    public let isTransient: Bool

    /// Creates a value.
    public init(_ reason: String, transient: Bool) {
        self.reason = reason
        self.isTransient = transient
    }

    public var description: String { reason }

    /// An address SMTP cannot carry as it is.
    public static let badAddress = MailError("not an address SMTP can carry (printable ASCII, one @)", transient: false)
    /// A header value that holds a line break or a control character.
    public static let badHeader = MailError("a header value holds a control character", transient: false)
}
