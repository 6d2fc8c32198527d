import Foundation
import SignetCrypto
import SignetJOSE

/// What an `IDTokenValidator` requires of an ID token (OpenID Connect Core §3.1.3.7). Every check
/// is explicit; nothing is inferred from the token.
public struct IDTokenPolicy: Sendable, TokenLimited {
    /// How the `nonce` claim is checked.
    public enum NonceCheck: Sendable {
        /// Not checked (only for flows that sent no nonce).
        case none
        /// A nonce must be present; the caller checks its value (for example against a store of
        /// pending nonces, consumed atomically).
        case required
        /// Must equal this value exactly (constant-time).
        case equals(String)
        /// Must be present and satisfy the predicate.
        case matches(@Sendable (String) -> Bool)
    }

    /// The exact expected `iss`.
    public var issuer: String
    /// Other exact `iss` values the provider documents for itself (Google: `accounts.google.com`
    /// besides `https://accounts.google.com`). Empty for almost every provider.
    public var issuerAliases: Set<String> = []
    /// Accepted audiences: `aud` must contain one of them.
    public var audiences: Set<String>
    /// The nonce rule.
    public var nonce: NonceCheck
    /// Accepted signature algorithms (also pinned by each key). Defaults: RS256, ES256.
    public var allowedAlgorithms: Set<SignatureAlgorithm>
    /// Tolerated clock skew for `exp` and `iat`, the longest accepted token, and the current time
    /// (injected); `leeway`, `maxTokenBytes` and `clock` read and write them. The validator hands
    /// them to the JOSE verifier as they are.
    public var limits: TokenLimits
    /// If set, `iat` must be at most this many seconds ago.
    public var maximumAge: TimeInterval?

    /// Creates a policy.
    public init(issuer: String, audiences: Set<String>, nonce: NonceCheck,
                allowedAlgorithms: Set<SignatureAlgorithm> = [.rs256, .es256], leeway: TimeInterval = 60,
                maximumAge: TimeInterval? = nil, maxTokenBytes: Int = 16 * 1024,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.issuer = issuer
        self.audiences = audiences
        self.nonce = nonce
        self.allowedAlgorithms = allowedAlgorithms
        self.limits = TokenLimits(leeway: leeway, maxTokenBytes: maxTokenBytes, clock: clock)
        self.maximumAge = maximumAge
    }
}
