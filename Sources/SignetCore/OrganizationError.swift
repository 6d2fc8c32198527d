/// A refusal of an organization operation, safe to show: what kind (bad input, unknown, taken,
/// not allowed), the field it is about, and a message. The admin API, the org-admin API and the
/// CLI each turn it into their own answer.
public struct OrganizationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Kind: Sendable, Equatable {
        /// Bad input (400).
        case invalid
        /// No such organization, member, role or invitation (404).
        case notFound
        /// Taken: a slug, a role name, an existing member (409).
        case conflict
        /// Not allowed for this caller (403): an org admin granting `owner`, changing an owner.
        case forbidden
    }

    /// The kind.
    public let kind: Kind
    /// The field (a body member or argument), or nil.
    public let field: String?
    /// What went wrong; never an email or a token.
    public let message: String

    /// Creates the error.
    public init(_ kind: Kind, _ field: String?, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { field.map { "\($0): \(message)" } ?? message }
}
