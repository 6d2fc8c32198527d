import SignetCore

extension Settings {
    // MARK: accounts
    /// The sign-up policy.
    public static let accountsSignUp = Setting(\SignetConfiguration.accounts.signUp, "sign_up", SignUpPolicy.off, .oneOf,
        "Whether people may create their own account on the sign-up page (a \"Create account\" link on the sign-in page): \"off\" (accounts come from `signet users add` or a provider), \"open\", or \"domains\" (only addresses in accounts.sign_up_domains). The address is confirmed with a mailed code or link (see docs/accounts.md); `signet serve --demo` turns it on.")
    /// Domains allowed to sign up.
    public static let accountsSignUpDomains = Setting(\SignetConfiguration.accounts.signUpDomains, "sign_up_domains", [],
                                                      .strings("array of domain", problem: { signUpDomainProblem($0) }),
        "With sign_up \"domains\": the email domains that may sign up, such as [\"example.com\"], compared exactly (lowercase ASCII; an international domain in its xn-- form). Subdomains are not included.")
    /// Password sign-in needs a confirmed address.
    public static let accountsRequireVerifiedEmail = Setting(\SignetConfiguration.accounts.requireVerifiedEmail, "require_verified_email",
                                                             false, .boolean,
        "Refuse password sign-in to accounts whose address is not confirmed: the right password then sends a new code and asks for it instead. Accounts made by `signet users add` start unconfirmed, so with this on their owners confirm the address at their first sign-in (mail must be configured).")
    /// Email codes and magic links as a sign-in method.
    /// Per client: email codes and magic links for this client's sign-ins.
    static let clientEmailSignIn = Setting(\ClientEntry.spec.emailSignIn, "email_sign_in", nil, .optional(.boolean),
        "Email codes and magic links as a sign-in method for this client: true or false overrides accounts.email_sign_in for its sign-in page; unset follows it.")
    public static let accountsEmailSignIn = Setting(\SignetConfiguration.accounts.emailSignIn, "email_sign_in", false, .boolean,
        "Offer \"Email me a sign-in code\" on the sign-in page for every client: a 6-digit code and a link, valid 10 minutes, that sign in an existing account without its password (`amr` \"otp\", RFC 8176). The link signs in only the browser that asked for it.")
    /// The settings of the `accounts` object, in reference order.
    public static let accounts = SettingsGroup<SignetConfiguration>(key: "accounts", title: "Accounts", settings: [
        accountsSignUp.entry, accountsSignUpDomains.entry, accountsRequireVerifiedEmail.entry, accountsEmailSignIn.entry,
    ])

    /// Why a sign-up domain cannot match a normalised address, or nil.
    static func signUpDomainProblem(_ domain: String) -> String? {
        guard let normalized = try? EmailAddress.normalizeDomain(domain), normalized == domain else {
            return "must be a lowercase ASCII domain such as \"example.com\" (an international domain in its xn-- form)"
        }
        return nil
    }
}
