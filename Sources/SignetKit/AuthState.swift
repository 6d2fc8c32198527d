import Foundation
import Synchronization

/// What `AuthState` needs from its client: refresh, revocation, persistence. `SignInClient`
/// provides it; tests may provide their own.
protocol AuthStateBackend: Sendable {
    /// Redeems `tokens.refreshToken` for `request`. Once the token endpoint has answered with
    /// tokens, they are returned whatever fails afterwards (the ID-token check, an unusable
    /// token type): the refresh token may have rotated, and dropping it would end the family.
    /// Throws only when no tokens came back.
    func refresh(_ tokens: StoredTokens, request: RefreshRequest) async throws(SignInError) -> RefreshOutcome
    /// Revokes the refresh token (RFC 7009); false when the server has no revocation endpoint.
    func revoke(_ tokens: StoredTokens) async throws(SignInError) -> Bool
    /// Deletes the signed-in user's account at the server with this access token.
    func deleteAccount(accessToken: String) async throws(SignInError)
    /// Persists the tokens (nil: removes them).
    func save(_ tokens: StoredTokens?) throws(SignInError)
    /// The tokens in storage now (another holder may have rotated them).
    func load() throws(SignInError) -> StoredTokens?
    /// The current time.
    func now() -> Date
}

/// What a refresh produced: the tokens to keep, and what went wrong after the server answered.
struct RefreshOutcome: Sendable {
    /// The tokens to keep (at least the rotated refresh token).
    var tokens: StoredTokens
    /// A check that failed after the token endpoint answered; the tokens are kept regardless.
    var problem: SignInError?
}

/// A signed-in session: its tokens, kept fresh.
///
/// There is one `AuthState` per stored session in a process: `SignInClient.restoreSession()`,
/// `completeSignIn` and every other way to get one return the same object for the same storage
/// and key, so refreshes coalesce across all of them. Before each refresh the state re-reads
/// storage, so a refresh token rotated by another process is the one used.
///
/// `freshAccessToken()` returns the access token, refreshing it first when it expires within the
/// margin. Concurrent callers share ONE refresh: the first starts it, the others wait for the
/// same result (RFC 9700 §4.14: with rotating refresh tokens, two refreshes would race and one
/// could end the session); refreshes for different resources run one after another.
///
/// Renewed tokens are never dropped: they are kept in memory the moment the server answers, then
/// saved. When saving fails, or the refreshed ID token fails its checks, the call throws that
/// error but the tokens stay; a failed save is retried at the next operation. Only an OAuth
/// error from the token endpoint (`invalid_grant`, `invalid_client`, `unauthorized_client`) ends
/// the session; a network error leaves it intact. `changes()` reports every change.
public actor AuthState {
    private let backend: any AuthStateBackend
    private var tokens: StoredTokens?
    /// The tokens in memory are newer than storage (a save failed); retried at the next operation.
    private var unsaved = false
    private var refreshing: (request: RefreshRequest, task: Task<Result<StoredTokens, SignInError>, Never>)?
    private var signingOut = false
    /// Counts new sign-ins into this state: a refresh of the replaced session must not overwrite them.
    private var generation = 0
    private let observers = Observers()

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

    /// Whether `signOut()` is under way (for tests that act while it waits for a refresh).
    var isSigningOut: Bool { signingOut }

    /// Whether the tokens in memory could not be saved yet (the save is retried at the next call).
    public var hasUnsavedTokens: Bool { unsaved }

    /// A stream of this session's changes (tokens rotated, session ended and why, problems),
    /// from now on. Ends when the observer stops iterating.
    ///
    /// ```swift
    /// for await change in session.changes() {
    ///     if case .ended(let reason) = change { showSignIn(reason) }
    /// }
    /// ```
    public nonisolated func changes() -> AsyncStream<SessionChange> {
        observers.add()
    }

    /// An access token valid for at least `margin` seconds, refreshing when needed.
    ///
    /// - Parameters:
    ///   - resource: the API the token is for (RFC 8707 `resource`), nil for the default audience.
    ///     One token is cached per resource.
    ///   - scope: a narrower scope than the grant's (RFC 6749 §6), nil for all of it.
    /// - Throws: `.notSignedIn` after the session ended (also when the refresh token was
    ///   refused: the app must sign in again); `.network` when the server could not be reached
    ///   (the session stays: try again later); `.storage` or `.invalidIDToken` when the tokens
    ///   were renewed but could not be saved or their ID token failed a check (the renewed tokens
    ///   are kept; the next call returns them).
    public func freshAccessToken(for resource: String? = nil, scope: [String]? = nil,
                                 margin: TimeInterval = 30) async throws(SignInError) -> String {
        let request = RefreshRequest(resource: resource, scope: scope)
        retrySave()
        if tokens == nil { adoptStorage() }
        guard let current = tokens else { throw .notSignedIn }
        if refreshing == nil, let token = current.accessToken(for: request),
           token.expiresAt.timeIntervalSince(backend.now()) > margin {
            return token.value
        }
        let renewed = try await run(request, unlessFreshFor: margin)
        guard let token = renewed.accessToken(for: request) else { throw .invalidTokenResponse("no access token") }
        return token.value
    }

    /// Refreshes now (or joins the refresh already in flight) and returns the new tokens.
    ///
    /// - Parameters:
    ///   - resource: RFC 8707 `resource` for the new access token (kept in `resourceTokens`).
    ///   - scope: a narrower scope (RFC 6749 §6).
    @discardableResult
    public func refresh(resource: String? = nil, scope: [String]? = nil) async throws(SignInError) -> StoredTokens {
        retrySave()
        return try await run(RefreshRequest(resource: resource, scope: scope), unlessFreshFor: nil)
    }

    /// Signs out: waits for a refresh in flight (so the newest refresh token is the one revoked,
    /// and no refresh can leave a new token behind), removes the tokens from storage, then
    /// revokes the refresh token (RFC 7009). The local session ends whatever the server says.
    ///
    /// - Returns: what happened, or nil when there was no session.
    @discardableResult
    public func signOut() async -> SignOutResult? {
        signingOut = true
        defer { signingOut = false }
        while let running = refreshing { _ = await running.task.value }
        adoptStorage()   // a refresh token rotated by another holder is the one to revoke
        guard let current = tokens else { return nil }
        tokens = nil
        unsaved = false
        var storageError: SignInError?
        do { try backend.save(nil) } catch { storageError = error }
        observers.send(.ended(.signedOut))
        let revocation: SignOutResult.Revocation
        do {
            revocation = try await backend.revoke(current) ? .revoked : .unsupported
        } catch {
            revocation = .failed(error)
        }
        return SignOutResult(idToken: current.idToken, revocation: revocation, storageError: storageError)
    }

    /// Deletes the signed-in user's account: `DELETE {issuer}/account` with the current access
    /// token (refreshed first when it is about to expire), then removes the tokens from storage
    /// and ends the session (`changes()` reports `.ended(.signedOut)`). The access token must
    /// carry the `account:delete` scope, which Signet grants to first-party apps only: ask for it
    /// in `ClientConfiguration.scopes`. Everything the account held is gone at the server
    /// (refresh tokens, sessions, linked identities; Apple's token is revoked there).
    ///
    /// - Throws: `.accountDeletionRefused` (`oauthError` `invalid_token` or
    ///   `insufficient_scope`) when the server refused, the session staying as it was;
    ///   `.network` when it could not be reached; `.notSignedIn` without a session; `.storage`
    ///   when the account was deleted but the local tokens could not be removed (the session has
    ///   ended in memory all the same).
    public func deleteAccount() async throws(SignInError) {
        let accessToken = try await freshAccessToken()
        signingOut = true
        defer { signingOut = false }
        while let running = refreshing { _ = await running.task.value }
        try await backend.deleteAccount(accessToken: accessToken)
        tokens = nil
        unsaved = false
        var storageError: SignInError?
        do { try backend.save(nil) } catch { storageError = error }
        observers.send(.ended(.signedOut))
        if let storageError { throw storageError }
    }

    /// A new sign-in for the same stored session (already saved) replaces the tokens.
    func replace(with fresh: StoredTokens) {
        generation += 1
        tokens = fresh
        unsaved = false
        observers.send(.tokensUpdated(fresh))
    }

    /// Joins the refresh in flight for the same request, waits for one for another request, or
    /// starts one (after re-reading storage).
    private func run(_ request: RefreshRequest, unlessFreshFor margin: TimeInterval?) async throws(SignInError) -> StoredTokens {
        while let running = refreshing {
            let result = await running.task.value
            if running.request == request { return try result.get() }
        }
        guard !signingOut else { throw .notSignedIn }
        adoptStorage()
        guard let current = tokens, current.refreshToken != nil else { throw .notSignedIn }
        if let margin, let token = current.accessToken(for: request), token.expiresAt.timeIntervalSince(backend.now()) > margin {
            return current   // another holder refreshed it meanwhile
        }
        // No suspension between here and `refreshing = …`: the task cannot start before it is recorded.
        let task = Task { await self.performRefresh(current, request) }
        refreshing = (request, task)
        return try await task.value.get()
    }

    /// The refresh itself. Its result is applied to the state before the task completes, so
    /// whoever awaits the task (another caller, `signOut`) sees the state it left.
    private func performRefresh(_ current: StoredTokens, _ request: RefreshRequest) async -> Result<StoredTokens, SignInError> {
        defer { refreshing = nil }
        let started = generation
        let outcome: RefreshOutcome
        do {
            outcome = try await backend.refresh(current, request: request)
        } catch {
            guard generation == started else { return .failure(error) }   // a new sign-in replaced that session
            guard let code = Self.sessionEndingCode(error) else { return .failure(error) }
            tokens = nil
            unsaved = false
            try? backend.save(nil)
            observers.send(.ended(.refreshTokenRefused(code: code)))
            return .failure(.notSignedIn)
        }
        // A new sign-in replaced the refreshed session meanwhile: the new one stays.
        guard generation == started else { return .success(outcome.tokens) }
        // Kept first, then saved: a failed save must not lose the rotated refresh token.
        tokens = outcome.tokens
        observers.send(.tokensUpdated(outcome.tokens))
        var failure = outcome.problem
        if let problem = outcome.problem { observers.send(.problem(problem)) }
        do {
            try backend.save(outcome.tokens)
            unsaved = false
        } catch {
            unsaved = true
            observers.send(.problem(error))
            failure = failure ?? error
        }
        if let failure { return .failure(failure) }
        return .success(outcome.tokens)
    }

    /// Saves tokens a failed save left in memory only. A second failure is reported to
    /// observers; the call goes on with the tokens in memory.
    private func retrySave() {
        guard unsaved, let tokens else { return }
        do {
            try backend.save(tokens)
            unsaved = false
        } catch {
            observers.send(.problem(error))
        }
    }

    /// Takes what storage holds when it differs (another holder rotated or ended the session);
    /// kept as is while memory holds unsaved tokens, or when storage cannot be read.
    private func adoptStorage() {
        guard !unsaved else { return }
        let stored: StoredTokens?
        do { stored = try backend.load() } catch { return }
        guard let stored else {
            if tokens != nil {
                tokens = nil
                observers.send(.ended(.removedFromStorage))
            }
            return
        }
        if let tokens, tokens.refreshToken == stored.refreshToken, tokens.accessToken == stored.accessToken,
           tokens.resourceTokens.mapValues(\.accessToken) == stored.resourceTokens.mapValues(\.accessToken) { return }
        tokens = stored
        observers.send(.tokensUpdated(stored))
    }

    /// The OAuth error code when `error` means the refresh token will never work again.
    static func sessionEndingCode(_ error: SignInError) -> String? {
        guard error.code == .tokenError, let code = error.oauthError,
              ["invalid_grant", "invalid_client", "unauthorized_client"].contains(code) else { return nil }
        return code
    }
}

/// The observers of one `AuthState`.
final class Observers: Sendable {
    private let continuations = Mutex<[Int: AsyncStream<SessionChange>.Continuation]>([:])
    private let counter = Atomic<Int>(0)

    func add() -> AsyncStream<SessionChange> {
        let id = counter.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<SessionChange>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    func send(_ change: SessionChange) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(change) }
    }
}
