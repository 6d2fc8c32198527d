/// The one user a `MockProvider` signs in (auto-approved).
public struct MockUser: Sendable, Equatable {
    /// `sub` (Google/Apple/generic).
    public var subject: String
    /// `email`, or nil to leave it out.
    public var email: String?
    /// Whether the provider says the email is verified.
    public var emailVerified: Bool
    /// `name`.
    public var name: String?
    /// GitHub's numeric user id (`/user` → `id`).
    public var githubID: Int
    /// GitHub's `login`.
    public var login: String
    /// GitHub's `/user/emails` list (email, primary, verified); defaults to `email` as primary.
    public var githubEmails: [(email: String, primary: Bool, verified: Bool)]?

    /// Creates a user.
    public init(subject: String = "mock-user-1", email: String? = "alice@example.com", emailVerified: Bool = true,
                name: String? = "Alice Example", githubID: Int = 4242, login: String = "alice",
                githubEmails: [(email: String, primary: Bool, verified: Bool)]? = nil) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.githubID = githubID
        self.login = login
        self.githubEmails = githubEmails
    }

    /// Compares every member, the GitHub email list element-wise.
    public static func == (lhs: MockUser, rhs: MockUser) -> Bool {
        lhs.subject == rhs.subject && lhs.email == rhs.email && lhs.emailVerified == rhs.emailVerified
            && lhs.name == rhs.name && lhs.githubID == rhs.githubID && lhs.login == rhs.login
            && lhs.githubEmails?.map(\.email) == rhs.githubEmails?.map(\.email)
            && lhs.githubEmails?.map(\.primary) == rhs.githubEmails?.map(\.primary)
            && lhs.githubEmails?.map(\.verified) == rhs.githubEmails?.map(\.verified)
    }
}
