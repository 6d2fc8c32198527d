import Foundation

/// Why a sign-in (or a refresh, or a sign-out) did not complete. Each ``Code`` names one rule.
///
/// A struct around a private enum, as Swift's own evolving error types are, so that a new rule
/// is a new code and not a source break for apps: compare with `==`, match the static members in
/// a `catch` or `switch`, and always keep a `default`:
///
/// ```swift
/// do {
///     session = try await client.completeSignIn(callback: url)
/// } catch SignInError.cancelled {
///     return                                   // the user closed the browser
/// } catch let error as SignInError where error.code == .authorizationError {
///     show("refused: \(error.oauthError ?? "")")
/// } catch let error as SignInError {
///     switch error.code {
///     case .stateMismatch, .missingState: log("a forged callback")
///     case .network: retryLater()
///     default: show(error.localizedDescription)
///     }
/// }
/// ```
///
/// Descriptions never contain codes, tokens, state, nonces or callback URLs.
public struct SignInError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// Which rule a ``SignInError`` names; more may be added, so a `switch` needs a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Rule: String, Sendable, Hashable {
            case discoveryFailed, issuerMismatch, invalidRedirectURI, noPendingSignIn, pendingSignInExpired
            case unexpectedRedirect, malformedCallback, missingState, stateMismatch, missingIssuer
            case issuerParameterMismatch, authorizationError, missingCode, cancelled, timedOut, tokenError
            case network, invalidTokenResponse, invalidIDToken, notSignedIn, storage
            case nativeSignInUnavailable, endSessionUnavailable, accountDeletionRefused
            case passkeyRefused, authenticatorFailed
        }
        fileprivate let rule: Rule
        fileprivate init(_ rule: Rule) { self.rule = rule }

        /// The discovery document could not be fetched or read.
        public static let discoveryFailed = Code(.discoveryFailed)
        /// The discovery document names another issuer than the one asked for (OIDC Discovery §4.3).
        public static let issuerMismatch = Code(.issuerMismatch)
        /// The configured redirect URI is not one this client may use.
        public static let invalidRedirectURI = Code(.invalidRedirectURI)
        /// No sign-in is waiting for a callback.
        public static let noPendingSignIn = Code(.noPendingSignIn)
        /// The pending sign-in is older than its lifetime.
        public static let pendingSignInExpired = Code(.pendingSignInExpired)
        /// The callback arrived at another address than the redirect URI sent.
        public static let unexpectedRedirect = Code(.unexpectedRedirect)
        /// The callback's query is malformed.
        public static let malformedCallback = Code(.malformedCallback)
        /// The callback carries no `state`.
        public static let missingState = Code(.missingState)
        /// The callback's `state` is not the one this sign-in sent.
        public static let stateMismatch = Code(.stateMismatch)
        /// The server advertises RFC 9207 but the callback carries no `iss`.
        public static let missingIssuer = Code(.missingIssuer)
        /// The callback's `iss` is not the issuer.
        public static let issuerParameterMismatch = Code(.issuerParameterMismatch)
        /// The authorization server answered with an error (``SignInError/oauthError``).
        public static let authorizationError = Code(.authorizationError)
        /// The callback has neither `code` nor `error`.
        public static let missingCode = Code(.missingCode)
        /// The user closed the browser or cancelled.
        public static let cancelled = Code(.cancelled)
        /// Nothing came back before the time limit.
        public static let timedOut = Code(.timedOut)
        /// The token endpoint refused with an OAuth error (``SignInError/oauthError``).
        public static let tokenError = Code(.tokenError)
        /// The server could not be reached, or answered with something that is not OAuth.
        public static let network = Code(.network)
        /// The token response is not usable.
        public static let invalidTokenResponse = Code(.invalidTokenResponse)
        /// The ID token failed a check of OpenID Connect Core §3.1.3.7.
        public static let invalidIDToken = Code(.invalidIDToken)
        /// The session is over: sign in again.
        public static let notSignedIn = Code(.notSignedIn)
        /// Token storage failed.
        public static let storage = Code(.storage)
        /// The server does not offer native ID-token sign-in.
        public static let nativeSignInUnavailable = Code(.nativeSignInUnavailable)
        /// The server does not offer RP-initiated logout.
        public static let endSessionUnavailable = Code(.endSessionUnavailable)
        /// The server refused to delete the account (RFC 6750 §3.1: `invalid_token`, `insufficient_scope`).
        public static let accountDeletionRefused = Code(.accountDeletionRefused)
        /// Signet refused a step of a native passkey ceremony (``SignInError/oauthError``).
        public static let passkeyRefused = Code(.passkeyRefused)
        /// The platform authenticator did not produce a credential (``SignInError/detail``).
        public static let authenticatorFailed = Code(.authenticatorFailed)

        /// The code's name, e.g. `stateMismatch`.
        public var description: String { rule.rawValue }
    }

    /// The rule and what it carries; private, so adding one breaks no app.
    private enum Reason: Sendable, Hashable {
        case discoveryFailed(String)
        case issuerMismatch(expected: String, found: String)
        case invalidRedirectURI(String)
        case noPendingSignIn
        case pendingSignInExpired
        case unexpectedRedirect(String)
        case malformedCallback
        case missingState
        case stateMismatch
        case missingIssuer
        case issuerParameterMismatch
        case authorizationError(OAuthRefusal)
        case missingCode
        case cancelled
        case timedOut
        case tokenError(OAuthRefusal)
        case network(String)
        case invalidTokenResponse(String)
        case invalidIDToken(String)
        case notSignedIn
        case storage(String)
        case nativeSignInUnavailable
        case endSessionUnavailable
        case accountDeletionRefused(OAuthRefusal)
        case passkeyRefused(OAuthRefusal)
        case authenticatorFailed(String)
    }

    /// An OAuth error answer (RFC 6749 §4.1.2.1, §5.2).
    private struct OAuthRefusal: Sendable, Hashable {
        let code: String
        let description: String?
        let uri: String?
    }

    private let reason: Reason
    private init(_ reason: Reason) { self.reason = reason }

    /// The discovery document could not be fetched or read.
    public static func discoveryFailed(_ why: String) -> SignInError { SignInError(.discoveryFailed(why)) }
    /// The discovery document names another issuer than the one asked for (OIDC Discovery §4.3).
    public static func issuerMismatch(expected: String, found: String) -> SignInError {
        SignInError(.issuerMismatch(expected: expected, found: found))
    }
    /// The configured redirect URI is not one this client may use.
    public static func invalidRedirectURI(_ why: String) -> SignInError { SignInError(.invalidRedirectURI(why)) }
    /// No sign-in is waiting for a callback: never started, already completed (a second
    /// callback), or cancelled.
    public static let noPendingSignIn = SignInError(.noPendingSignIn)
    /// The pending sign-in is older than its lifetime; start again.
    public static let pendingSignInExpired = SignInError(.pendingSignInExpired)
    /// The callback arrived at another scheme, host, port or path than the redirect URI sent.
    public static func unexpectedRedirect(_ why: String) -> SignInError { SignInError(.unexpectedRedirect(why)) }
    /// The callback's query is malformed (repeated or badly escaped parameters).
    public static let malformedCallback = SignInError(.malformedCallback)
    /// The callback carries no `state`.
    public static let missingState = SignInError(.missingState)
    /// The callback's `state` is not the one this sign-in sent (RFC 6749 §10.12).
    public static let stateMismatch = SignInError(.stateMismatch)
    /// The server advertises RFC 9207 but the callback carries no `iss`.
    public static let missingIssuer = SignInError(.missingIssuer)
    /// The callback's `iss` is not the issuer (RFC 9207 §2.4: a mix-up attack).
    public static let issuerParameterMismatch = SignInError(.issuerParameterMismatch)
    /// The authorization server answered with an error (RFC 6749 §4.1.2.1), e.g. `access_denied`.
    public static func authorizationError(code: String, description: String?, uri: String? = nil) -> SignInError {
        SignInError(.authorizationError(OAuthRefusal(code: code, description: description, uri: uri)))
    }
    /// The callback has neither `code` nor `error`.
    public static let missingCode = SignInError(.missingCode)
    /// The user closed the browser or cancelled.
    public static let cancelled = SignInError(.cancelled)
    /// Nothing came back before the time limit.
    public static let timedOut = SignInError(.timedOut)
    /// The token endpoint refused the request with an OAuth error (RFC 6749 §5.2), e.g. `invalid_grant`.
    public static func tokenError(code: String, description: String?, uri: String? = nil) -> SignInError {
        SignInError(.tokenError(OAuthRefusal(code: code, description: description, uri: uri)))
    }
    /// The server could not be reached, or answered with something that is not OAuth.
    public static func network(_ why: String) -> SignInError { SignInError(.network(why)) }
    /// The token response is not usable (no ID token, bad JSON, wrong token type).
    public static func invalidTokenResponse(_ why: String) -> SignInError { SignInError(.invalidTokenResponse(why)) }
    /// The ID token failed a check of OpenID Connect Core §3.1.3.7.
    public static func invalidIDToken(_ why: String) -> SignInError { SignInError(.invalidIDToken(why)) }
    /// The session is over (refresh token refused, or signed out): sign in again.
    public static let notSignedIn = SignInError(.notSignedIn)
    /// Token storage failed.
    public static func storage(_ why: String) -> SignInError { SignInError(.storage(why)) }
    /// The server advertises no `native_nonce_endpoint`: it does not offer native ID-token sign-in.
    public static let nativeSignInUnavailable = SignInError(.nativeSignInUnavailable)
    /// The server advertises no `end_session_endpoint`: it does not offer RP-initiated logout.
    public static let endSessionUnavailable = SignInError(.endSessionUnavailable)
    /// `DELETE /account` answered with an RFC 6750 error: `invalid_token` (sign in again) or
    /// `insufficient_scope` (the app did not ask for `account:delete`, or is not first-party).
    public static func accountDeletionRefused(code: String, description: String?) -> SignInError {
        SignInError(.accountDeletionRefused(OAuthRefusal(code: code, description: description, uri: nil)))
    }

    /// Signet refused a step of a native passkey ceremony with an OAuth error: `invalid_request`
    /// (a replayed or expired challenge, a wrong origin or RP ID, a response that fails a check),
    /// `access_denied` (an unknown or blocked passkey, a bad signature), `invalid_token` /
    /// `insufficient_scope` (registration without a fitting access token),
    /// `unauthorized_client`, `temporarily_unavailable` (rate limited).
    public static func passkeyRefused(code: String, description: String?) -> SignInError {
        SignInError(.passkeyRefused(OAuthRefusal(code: code, description: description, uri: nil)))
    }
    /// The platform authenticator failed or returned something unusable (the user cancelling is
    /// ``cancelled``).
    public static func authenticatorFailed(_ why: String) -> SignInError { SignInError(.authenticatorFailed(why)) }

    /// The rule this error names.
    public var code: Code {
        switch reason {
        case .discoveryFailed: .discoveryFailed
        case .issuerMismatch: .issuerMismatch
        case .invalidRedirectURI: .invalidRedirectURI
        case .noPendingSignIn: .noPendingSignIn
        case .pendingSignInExpired: .pendingSignInExpired
        case .unexpectedRedirect: .unexpectedRedirect
        case .malformedCallback: .malformedCallback
        case .missingState: .missingState
        case .stateMismatch: .stateMismatch
        case .missingIssuer: .missingIssuer
        case .issuerParameterMismatch: .issuerParameterMismatch
        case .authorizationError: .authorizationError
        case .missingCode: .missingCode
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        case .tokenError: .tokenError
        case .network: .network
        case .invalidTokenResponse: .invalidTokenResponse
        case .invalidIDToken: .invalidIDToken
        case .notSignedIn: .notSignedIn
        case .storage: .storage
        case .nativeSignInUnavailable: .nativeSignInUnavailable
        case .endSessionUnavailable: .endSessionUnavailable
        case .accountDeletionRefused: .accountDeletionRefused
        case .passkeyRefused: .passkeyRefused
        case .authenticatorFailed: .authenticatorFailed
        }
    }

    private var refusal: OAuthRefusal? {
        switch reason {
        case .authorizationError(let refusal), .tokenError(let refusal), .accountDeletionRefused(let refusal),
             .passkeyRefused(let refusal): refusal
        default: nil
        }
    }

    /// The OAuth `error` code (e.g. `access_denied`, `invalid_grant`) of an ``Code/authorizationError``,
    /// ``Code/tokenError`` or ``Code/accountDeletionRefused``; nil for the other codes.
    public var oauthError: String? { refusal?.code }

    /// Whether a native sign-in (the ID-token exchange, a native passkey) needs a step that only
    /// the browser can show — the organization's identity provider, a second factor, setting one
    /// up (`interaction_required`): run the browser sign-in instead.
    public var needsBrowser: Bool { oauthError == "interaction_required" }
    /// The `error_description` the server sent with ``oauthError``, if any.
    public var oauthErrorDescription: String? { refusal?.description }
    /// The `error_uri` the server sent with ``oauthError``, if any.
    public var oauthErrorURI: String? { refusal?.uri }

    /// What went wrong, in words without secrets, for the codes that say more than their name
    /// (discovery, redirect URI, unexpected redirect, network, token response, ID token, storage).
    public var detail: String? {
        switch reason {
        case .discoveryFailed(let why), .invalidRedirectURI(let why), .unexpectedRedirect(let why), .network(let why),
             .invalidTokenResponse(let why), .invalidIDToken(let why), .storage(let why), .authenticatorFailed(let why): why
        default: nil
        }
    }

    /// The issuer asked for and the one the discovery document named, for ``Code/issuerMismatch``.
    public var mismatchedIssuer: (expected: String, found: String)? {
        guard case .issuerMismatch(let expected, let found) = reason else { return nil }
        return (expected, found)
    }

    /// One line for a person, without secrets.
    public var description: String {
        switch reason {
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
        case .authorizationError(let refusal): "the server refused the sign-in: \(refusal.code)" + (refusal.description.map { " (\($0))" } ?? "")
        case .missingCode: "the callback carries no code"
        case .cancelled: "the sign-in was cancelled"
        case .timedOut: "no callback arrived in time"
        case .tokenError(let refusal): "the token endpoint refused: \(refusal.code)" + (refusal.description.map { " (\($0))" } ?? "")
        case .network(let why): "network error: \(why)"
        case .invalidTokenResponse(let why): "invalid token response: \(why)"
        case .invalidIDToken(let why): "invalid ID token: \(why)"
        case .notSignedIn: "not signed in"
        case .storage(let why): "token storage: \(why)"
        case .nativeSignInUnavailable: "the server does not offer native ID-token sign-in (no native_nonce_endpoint)"
        case .endSessionUnavailable: "the server does not offer RP-initiated logout (no end_session_endpoint)"
        case .accountDeletionRefused(let refusal): "the server refused to delete the account: \(refusal.code)" + (refusal.description.map { " (\($0))" } ?? "")
        case .passkeyRefused(let refusal): "the server refused the passkey: \(refusal.code)" + (refusal.description.map { " (\($0))" } ?? "")
        case .authenticatorFailed(let why): "the authenticator failed: \(why)"
        }
    }

    /// The same line as ``description`` (`localizedDescription` shows it).
    public var errorDescription: String? { description }

    /// Lets `catch SignInError.cancelled` (and `case SignInError.stateMismatch` over `any Error`)
    /// match: equal to a thrown `SignInError`.
    public static func ~= (pattern: SignInError, error: any Error) -> Bool {
        (error as? SignInError) == pattern
    }
}
