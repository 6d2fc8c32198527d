extension Settings {
    // MARK: mfa
    /// Second factor for everyone.
    public static let mfaRequired = Setting(\SignetConfiguration.mfa.required, "required", false, .boolean,
        "Every user must sign in with a second factor (an authenticator app's TOTP code or a recovery code): a user without one is sent to set it up before any client gets a code. A client can require it for itself with its own mfa_required.")
    /// Attempts per account.
    public static let mfaAttemptLimit = Setting(\SignetConfiguration.mfa.attemptLimit, "attempt_limit", 5, .integer(3...100),
        "Second-factor attempts (TOTP or recovery codes) one account may make inside mfa.attempt_window; past it every code is refused unread until the window has moved on. A right code gives its attempt back.")
    /// The window of the attempt limit.
    public static let mfaAttemptWindow = Setting(\SignetConfiguration.mfa.attemptWindow, "attempt_window", 900, .seconds(60...86_400),
        "The sliding window of mfa.attempt_limit.")
    /// Wrong codes in a row before the TOTP factor locks.
    public static let mfaLockAfter = Setting(\SignetConfiguration.mfa.lockAfter, "lock_after", 20, .integer(3...100),
        "Wrong second-factor codes in a row (across every window; a right code resets the count) after which the account's authenticator app is locked (NIST SP 800-63B §5.2.2 allows at most 100): its codes are refused, even the right one, and the owner is mailed. A recovery code signs in and unlocks it, as does an operator (signet users unlock-totp, POST /admin/v1/users/{id}/unlock-totp). The attempt limit alone still lets a guesser try about 480 codes a day.")
    /// The settings of the `mfa` object, in reference order.
    public static let mfa = SettingsGroup<SignetConfiguration>(key: "mfa", title: "Second factors", settings: [
        mfaRequired.entry, mfaAttemptLimit.entry, mfaAttemptWindow.entry, mfaLockAfter.entry,
    ])

    /// Per client: a second factor for this client's sign-ins.
    static let clientMFARequired = Setting(\ClientEntry.spec.mfaRequired, "mfa_required", false, .boolean,
        "Users of this client must sign in with a second factor (as mfa.required does for every client); one without is sent to set it up first. Its ID and access tokens then carry acr urn:signet:acr:mfa or stronger.")
}
