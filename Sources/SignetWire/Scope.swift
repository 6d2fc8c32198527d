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
    /// Lets a first-party app add a passkey for the signed-in user through the native
    /// registration API (`/passkeys/native/register/…`); never granted to another client.
    public static let passkeysWrite = "passkeys:write"
    /// The scopes only first-party apps are granted, whatever a registration says: each acts on
    /// the account itself, which a third-party client must never do.
    public static let firstPartyOnly = [accountDelete, passkeysWrite]
    /// Claims `org_id`, `org_slug` and `org_roles` of the organization the sign-in chose.
    public static let organization = "organization"
    /// Lets the signed-in user manage the organizations it is an owner or admin of, through
    /// `/org/v1/{org}/…` (docs/organizations.md).
    public static let organizationAdmin = "organization:admin"

    /// Creates a scope from tokens, dropping repeats.
    public init<S: Sequence>(_ tokens: S) where S.Element == String {
        let given = Array(tokens)
        // A handful of tokens (every real scope) is checked against the kept ones, without hashing;
        // a long list (an attacker's request) goes through a set, so the cost stays linear.
        if given.count <= 16 {
            var kept: [String] = []
            kept.reserveCapacity(given.count)
            for token in given where !kept.contains(token) { kept.append(token) }
            self.tokens = kept
        } else {
            var seen = Set<String>()
            self.tokens = given.filter { seen.insert($0).inserted }
        }
    }

    /// Parses a space-delimited scope string. Each token must be `1*NQCHAR`
    /// (RFC 6749 §3.3: %x21 / %x23-5B / %x5D-7E); runs of spaces are tolerated.
    public init(parsing text: String) throws(OAuthError) {
        // One pass over the contiguous bytes (the generic `split` was 3 to 6 % of a refresh or
        // userinfo call, and walking `String.UTF8View` indices still half a percent of a
        // rotation): every byte is a space or an NQCHAR, so each token ends on a character boundary.
        var text = text
        let tokens = text.withUTF8 { bytes -> [String]? in
            var tokens: [String] = []
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == 0x20 {
                    if start != index { tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
                    start = index + 1
                } else if !Scope.isNQChar(byte) {
                    return nil
                }
            }
            if start != bytes.count { tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
            return tokens
        }
        guard let tokens else { throw OAuthError(.invalidScope, "The scope contains a character that is not allowed.") }
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
