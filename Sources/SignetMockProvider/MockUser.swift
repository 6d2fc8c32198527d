import SignetMacros

/// The one user a `MockProvider` signs in (auto-approved).
@MemberwiseInit
public struct MockUser: Sendable, Equatable {
    /// `sub` (Google/Apple/generic).
    public var subject: String = "mock-user-1"
    /// `email`, or nil to leave it out.
    public var email: String? = "alice@example.com"
    /// Whether the provider says the email is verified.
    public var emailVerified: Bool = true
    /// `name`.
    public var name: String? = "Alice Example"
    /// GitHub's numeric user id (`/user` → `id`).
    public var githubID: Int = 4242
    /// GitHub's `login`.
    public var login: String = "alice"
    /// GitHub's `/user/emails` list (email, primary, verified); defaults to `email` as primary.
    public var githubEmails: [(email: String, primary: Bool, verified: Bool)]? = nil

    /// Compares every member, the GitHub email list element-wise.
    public static func == (lhs: MockUser, rhs: MockUser) -> Bool {
        lhs.subject == rhs.subject && lhs.email == rhs.email && lhs.emailVerified == rhs.emailVerified
            && lhs.name == rhs.name && lhs.githubID == rhs.githubID && lhs.login == rhs.login
            && lhs.githubEmails?.map(\.email) == rhs.githubEmails?.map(\.email)
            && lhs.githubEmails?.map(\.primary) == rhs.githubEmails?.map(\.primary)
            && lhs.githubEmails?.map(\.verified) == rhs.githubEmails?.map(\.verified)
    }
}
