import SignetWire

/// What the browser is sent to next in an authorization flow.
public enum FlowStep: Sendable, Equatable {
    /// Success: the code goes to the client's verified redirect URI with `state` (and `iss`).
    case code(String, redirectURI: String, state: String?)
    /// An OAuth error for the client's verified redirect URI, with `state` (and `iss`).
    case error(OAuthError, redirectURI: String, state: String?)
    /// The user must sign in; the pending request is kept under this handle.
    case signIn(requestHandle: String)
    /// The user must allow or deny; the pending request is kept under this handle.
    case consent(requestHandle: String)
    /// The user must give a second factor (a TOTP or recovery code); the challenge (who signed
    /// in, how, and for which request) is kept under this handle.
    case secondFactor(challengeHandle: String)
    /// The user must set up a second factor before going on (`mfa.required`, a client's
    /// `mfa_required` or `acr_values`); the challenge is kept under this handle.
    case enrolSecondFactor(challengeHandle: String)
    /// The user just signed in with a password on a browser that can make passkeys: offer one
    /// before going on; the pending request is kept under this handle.
    case passkeyOffer(requestHandle: String)
    /// The request asked for scope `organization` without naming one and the user is a member of
    /// several: the user picks one on the organization page; the pending request is kept under
    /// this handle.
    case pickOrganization(requestHandle: String)
}

/// Why a step on a pending request could not run.
public enum FlowError: Error, Sendable, Equatable {
    /// The handle names no pending request: unknown, expired, or already used.
    case requestNotFound
    /// The pending request names a client that is no longer registered or valid.
    case clientGone
    /// The second-factor challenge's user no longer exists or was disabled.
    case userGone
}
