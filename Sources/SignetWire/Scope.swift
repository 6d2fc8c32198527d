/// An OAuth scope: an ordered set of scope tokens (RFC 6749 §3.3).
public struct Scope: Sendable, Hashable, CustomStringConvertible {
    /// The tokens, in the order first given, without duplicates.
    public let tokens: [String]

    /// OpenID Connect's scope values that Signet understands.
    public static let openID = "openid"
    /// Claims `name`, `given_name`, `family_name`, …
    public static let profile = "profile"
    /// Claims `email` and `email_verified`.
    public static let email = "email"
    /// Asks for a refresh token (OpenID Connect Core §11).
    public static let offlineAccess = "offline_access"
    /// Lets a first-party app delete the signed-in user's account (`DELETE /account`); never
    /// granted to another client.
    public static let accountDelete = "account:delete"
    /// Claims `org_id`, `org_slug` and `org_roles` of the organization the sign-in chose.
    public static let organization = "organization"
    /// Lets the signed-in user manage the organizations it is an owner or admin of, through
    /// `/org/v1/{org}/…` (docs/organizations.md).
    public static let organizationAdmin = "organization:admin"

    /// Creates a scope from tokens, dropping repeats.
    public init<S: Sequence>(_ tokens: S) where S.Element == String {
        var seen = Set<String>()
        self.tokens = tokens.filter { seen.insert($0).inserted }
    }

    /// Parses a space-delimited scope string. Each token must be `1*NQCHAR`
    /// (RFC 6749 §3.3: %x21 / %x23-5B / %x5D-7E); runs of spaces are tolerated.
    public init(parsing text: String) throws(OAuthError) {
        var tokens: [String] = []
        for part in text.split(separator: " ", omittingEmptySubsequences: true) {
            guard part.utf8.allSatisfy(Scope.isNQChar) else {
                throw OAuthError(.invalidScope, "The scope contains a character that is not allowed.")
            }
            tokens.append(String(part))
        }
        self.init(tokens)
    }

    /// True when the scope has no tokens.
    public var isEmpty: Bool { tokens.isEmpty }

    /// True when the scope holds the token.
    public func contains(_ token: String) -> Bool { tokens.contains(token) }

    /// True when every token of `self` is in `other`.
    public func isSubset(of other: Scope) -> Bool { tokens.allSatisfy(other.contains) }

    /// The tokens of `self` that are also in `other`, in `self`'s order.
    public func intersection(_ other: Scope) -> Scope { Scope(tokens.filter(other.contains)) }

    /// The space-delimited form.
    public var description: String { tokens.joined(separator: " ") }

    static func isNQChar(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
    }
}
