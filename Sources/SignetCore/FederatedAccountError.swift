/// Why an upstream identity could not be turned into a local account.
public enum FederatedAccountError: Error, Sendable, Equatable {
    /// The provider shared no (valid) email address, and a new account needs one.
    case emailRequired
    /// A local account already has this email, and linking is not allowed (the connection does
    /// not allow it, or the provider did not verify the email). The user must sign in to that
    /// account another way.
    case emailInUse
    /// The local account is disabled.
    case userDisabled
}
