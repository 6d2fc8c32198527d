/// Who may create an account on the sign-up page (`accounts.sign_up`).
public enum SignUpPolicy: String, Sendable, CaseIterable {
    /// No sign-up page: accounts come from `signet users add` or a provider.
    case off
    /// Anyone with an email address.
    case open
    /// Only addresses whose domain is in `accounts.sign_up_domains`.
    case domains
}
