import Foundation

/// What `AuthState` needs from its client: refresh, revocation, persistence. `SignInClient`
/// provides it; tests may provide their own.
protocol AuthStateBackend: Sendable {
    /// Redeems `tokens.refreshToken`; returns the new tokens (keeping the old refresh token when
    /// the server did not rotate it).
    func refresh(_ tokens: StoredTokens) async throws(SignInError) -> StoredTokens
    /// Revokes the refresh token (RFC 7009).
    func revoke(_ tokens: StoredTokens) async throws(SignInError)
    /// Persists the tokens (nil: removes them).
    func save(_ tokens: StoredTokens?) throws(SignInError)
    /// The current time.
    func now() -> Date
}

/// A signed-in session: its tokens, kept fresh.
///
/// `freshAccessToken()` returns the access token, refreshing it first when it expires within the
/// margin. Concurrent callers share ONE refresh: the first starts it, the others wait for the
/// same result (RFC 9700 §4.14: with rotating refresh tokens, two refreshes would race and one
/// could end the session). The rotated refresh token is saved to storage before any caller sees
/// the new access token. Only an OAuth error from the token endpoint (`invalid_grant`,
/// `invalid_client`, `unauthorized_client`) ends the session; a network error leaves it intact.
public actor AuthState {
    private let backend: any AuthStateBackend
    private var tokens: StoredTokens?
    private var refreshing: Task<Result<StoredTokens, SignInError>, Never>?

    init(tokens: StoredTokens, backend: any AuthStateBackend) {
        self.tokens = tokens
        self.backend = backend
    }

    /// The current tokens; nil once the session has ended.
    public var currentTokens: StoredTokens? { tokens }

    /// Whether the session is still alive.
    public var isSignedIn: Bool { tokens != nil }

    /// The signed-in user's `sub`.
    public var subject: String? { tokens?.subject }

    /// An access token valid for at least `margin` seconds, refreshing when needed.
    ///
    /// - Throws: `.notSignedIn` after the session ended (also when the refresh token was
    ///   refused: the app must sign in again); `.network` when the server could not be reached
    ///   (the session stays: try again later).
    public func freshAccessToken(margin: TimeInterval = 30) async throws(SignInError) -> String {
        guard let current = tokens else { throw .notSignedIn }
        if refreshing == nil, current.isAccessTokenFresh(at: backend.now(), margin: margin) { return current.accessToken }
        return try await refresh().accessToken
    }

    /// Refreshes now (or joins the refresh already in flight) and returns the new tokens.
    @discardableResult
    public func refresh() async throws(SignInError) -> StoredTokens {
        if let running = refreshing { return try await running.value.get() }
        guard let current = tokens else { throw .notSignedIn }
        guard current.refreshToken != nil else { throw .notSignedIn }
        let backend = self.backend
        let task = Task { () -> Result<StoredTokens, SignInError> in
            do throws(SignInError) {
                let renewed = try await backend.refresh(current)
                // Saved before anyone uses it: a crash now must not lose the rotated refresh token.
                try backend.save(renewed)
                return .success(renewed)
            } catch {
                return .failure(error)
            }
        }
        refreshing = task
        let result = await task.value
        refreshing = nil
        switch result {
        case .success(let renewed):
            tokens = renewed
        case .failure(let error) where Self.endsSession(error):
            tokens = nil
            try? backend.save(nil)
            throw .notSignedIn
        case .failure:
            break
        }
        return try result.get()
    }

    /// Signs out: revokes the refresh token (RFC 7009; failures are ignored, the local session
    /// ends regardless) and removes the tokens from storage. Returns the ID token, for an
    /// optional end-session request with `id_token_hint`.
    @discardableResult
    public func signOut() async -> String? {
        if let running = refreshing { _ = await running.value }
        guard let current = tokens else { return nil }
        tokens = nil
        try? backend.save(nil)
        try? await backend.revoke(current)
        return current.idToken
    }

    /// OAuth errors that mean the refresh token will never work again.
    static func endsSession(_ error: SignInError) -> Bool {
        guard case .tokenError(let code, _) = error else { return false }
        return ["invalid_grant", "invalid_client", "unauthorized_client"].contains(code)
    }
}
