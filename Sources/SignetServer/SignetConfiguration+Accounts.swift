import SignetCore

extension SignetConfiguration {
    /// Self-service accounts: sign-up, confirmation, recovery and email sign-in (docs/accounts.md).
    public struct Accounts: Sendable {
        /// Who may sign up.
        public var signUp: SignUpPolicy = Settings.accountsSignUp.defaultValue
        /// With `.domains`: the domains allowed.
        public var signUpDomains: [String] = Settings.accountsSignUpDomains.defaultValue
        /// Password sign-in needs a confirmed address.
        public var requireVerifiedEmail: Bool = Settings.accountsRequireVerifiedEmail.defaultValue
        /// Email codes and magic links sign in.
        public var emailSignIn: Bool = Settings.accountsEmailSignIn.defaultValue

        /// Whether `client`'s sign-in offers email codes and links: its own `email_sign_in` when
        /// set, else `accounts.email_sign_in`.
        public func emailSignIn(for client: Client) -> Bool { client.emailSignIn ?? emailSignIn }

        /// Whether `email` (normalised) may sign up.
        public func allowsSignUp(email: String) -> Bool {
            switch signUp {
            case .off: return false
            case .open: return true
            case .domains:
                let domain = email.split(separator: "@").last.map(String.init) ?? ""
                return signUpDomains.contains(domain)
            }
        }
    }
}
