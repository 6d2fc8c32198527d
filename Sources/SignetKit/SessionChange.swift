/// A change of a signed-in session, delivered to `AuthState.changes()` observers.
///
/// Observers never receive tokens in a log-safe form other than `StoredTokens` (whose
/// `description` is redacted).
public enum SessionChange: Sendable, Equatable {
    /// New tokens: a refresh rotated them, a new sign-in replaced them, or another holder of the
    /// same stored session did and they were read back from storage.
    case tokensUpdated(StoredTokens)
    /// The session is over; the app must sign in again.
    case ended(SessionEndReason)
    /// Renewed tokens were kept, but something failed around them: saving to storage (retried
    /// at the next operation) or checking the refreshed ID token.
    case problem(SignInError)
}

/// Why a session ended.
public enum SessionEndReason: Sendable, Equatable {
    /// `signOut()` was called.
    case signedOut
    /// The token endpoint refused the refresh token with this OAuth error (`invalid_grant`,
    /// `invalid_client`, `unauthorized_client`): revoked, expired, or reused.
    case refreshTokenRefused(code: String)
    /// Storage no longer holds the session: another holder (another process) signed out.
    case removedFromStorage
}

/// The outcome of `AuthState.signOut()`: what happened locally and at the server.
public struct SignOutResult: Sendable, Equatable {
    /// What the revocation request (RFC 7009) achieved.
    public enum Revocation: Sendable, Equatable {
        /// The server confirmed the revocation (HTTP 200).
        case revoked
        /// The server advertises no `revocation_endpoint`: the token stays valid until it expires.
        case unsupported
        /// The request failed (network error, or an OAuth error): the token may still be live.
        case failed(SignInError)
    }

    /// The last ID token, for an end-session request with `id_token_hint`. Secret.
    public let idToken: String?
    /// The revocation's outcome.
    public let revocation: Revocation
    /// Nil when the local copy was deleted from storage; else why deleting it failed.
    public let storageError: SignInError?

    /// Creates a result.
    public init(idToken: String?, revocation: Revocation, storageError: SignInError?) {
        self.idToken = idToken
        self.revocation = revocation
        self.storageError = storageError
    }
}
