/// Why a sign-in (or a refresh, or a sign-out) did not complete. Each case names one rule.
///
/// Descriptions never contain codes, tokens, state, nonces or callback URLs.
public enum SignInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The discovery document could not be fetched or read.
    case discoveryFailed(String)
    /// The discovery document names another issuer than the one asked for (OIDC Discovery §4.3).
    case issuerMismatch(expected: String, found: String)
    /// The configured redirect URI is not one this client may use.
    case invalidRedirectURI(String)
    /// No sign-in is waiting for a callback: never started, already completed (a second
    /// callback), or cancelled.
    case noPendingSignIn
    /// The pending sign-in is older than its lifetime; start again.
    case pendingSignInExpired
    /// The callback arrived at another scheme, host, port or path than the redirect URI sent.
    case unexpectedRedirect(String)
    /// The callback's query is malformed (repeated or badly escaped parameters).
    case malformedCallback
    /// The callback carries no `state`.
    case missingState
    /// The callback's `state` is not the one this sign-in sent (RFC 6749 §10.12).
    case stateMismatch
    /// The server advertises RFC 9207 but the callback carries no `iss`.
    case missingIssuer
    /// The callback's `iss` is not the issuer (RFC 9207 §2.4: a mix-up attack).
    case issuerParameterMismatch
    /// The authorization server answered with an error (RFC 6749 §4.1.2.1), e.g. `access_denied`.
    case authorizationError(code: String, description: String?)
    /// The callback has neither `code` nor `error`.
    case missingCode
    /// The user closed the browser or cancelled.
    case cancelled
    /// Nothing came back before the time limit.
    case timedOut
    /// The token endpoint refused the request with an OAuth error (e.g. `invalid_grant`).
    case tokenError(code: String, description: String?)
    /// The server could not be reached, or answered with something that is not OAuth.
    case network(String)
    /// The token response is not usable (no ID token, bad JSON, wrong token type).
    case invalidTokenResponse(String)
    /// The ID token failed a check of OpenID Connect Core §3.1.3.7.
    case invalidIDToken(String)
    /// The session is over (refresh token refused, or signed out): sign in again.
    case notSignedIn
    /// Token storage failed.
    case storage(String)
    /// The server advertises no `native_nonce_endpoint`: it does not offer native ID-token sign-in.
    case nativeSignInUnavailable
    /// The server advertises no `end_session_endpoint`: it does not offer RP-initiated logout.
    case endSessionUnavailable

    /// One line for a person, without secrets.
    public var description: String {
        switch self {
        case .discoveryFailed(let why): "discovery failed: \(why)"
        case .issuerMismatch(let expected, let found): "the discovery document names issuer \(found), expected \(expected)"
        case .invalidRedirectURI(let why): "invalid redirect URI: \(why)"
        case .noPendingSignIn: "no sign-in is waiting for this callback (already completed or never started)"
        case .pendingSignInExpired: "the sign-in took too long; start again"
        case .unexpectedRedirect(let why): "the callback arrived at an unexpected address: \(why)"
        case .malformedCallback: "the callback's parameters are malformed"
        case .missingState: "the callback carries no state"
        case .stateMismatch: "the callback's state does not match this sign-in"
        case .missingIssuer: "the callback carries no iss, but the server promises it (RFC 9207)"
        case .issuerParameterMismatch: "the callback comes from another issuer (RFC 9207)"
        case .authorizationError(let code, let description): "the server refused the sign-in: \(code)" + (description.map { " (\($0))" } ?? "")
        case .missingCode: "the callback carries no code"
        case .cancelled: "the sign-in was cancelled"
        case .timedOut: "no callback arrived in time"
        case .tokenError(let code, let description): "the token endpoint refused: \(code)" + (description.map { " (\($0))" } ?? "")
        case .network(let why): "network error: \(why)"
        case .invalidTokenResponse(let why): "invalid token response: \(why)"
        case .invalidIDToken(let why): "invalid ID token: \(why)"
        case .notSignedIn: "not signed in"
        case .storage(let why): "token storage: \(why)"
        case .nativeSignInUnavailable: "the server does not offer native ID-token sign-in (no native_nonce_endpoint)"
        case .endSessionUnavailable: "the server does not offer RP-initiated logout (no end_session_endpoint)"
        }
    }
}
