/// The lifetimes and algorithms the authorization server applies, taken from the configuration.
public struct ServerPolicy: Sendable {
    /// The issuer identifier.
    public var issuer: String
    /// Pending authorization requests, seconds.
    public var authorizationRequestLifetime = 600
    /// Authorization codes, seconds.
    public var authorizationCodeLifetime = 300
    /// Access tokens, seconds.
    public var accessTokenLifetime = 900
    /// ID tokens, seconds.
    public var idTokenLifetime = 3600
    /// Refresh tokens (idle), seconds.
    public var refreshTokenLifetime = 2_592_000
    /// Refresh token families (absolute), seconds.
    public var refreshFamilyLifetime = 7_776_000
    /// Rotation grace window, seconds.
    public var refreshGrace = 30
    /// SSO session idle timeout, seconds.
    public var sessionIdle = 86_400
    /// SSO session absolute timeout, seconds.
    public var sessionAbsolute = 1_209_600
    /// Access token signature algorithm.
    public var accessTokenAlgorithm: SignatureAlgorithmName = "ES256"
    /// Default ID token algorithm (clients may choose their own).
    public var idTokenAlgorithm: SignatureAlgorithmName = "RS256"
    /// Failed sign-ins per account from one client address inside `signInAccountWindow` after
    /// which that address may not try the account again without its password being checked
    /// (online guessing, OWASP ASVS V2.2.1). Other addresses are unaffected, so a guesser cannot
    /// lock the account's owner out.
    public var signInAccountFailureLimit = 5
    /// Failed sign-ins per account from every address inside `signInAccountWindow` after which the
    /// account counts as under attack: each address then gets one failed attempt per window for
    /// it instead of `signInAccountFailureLimit`. A spread-out guesser is slowed fivefold; an owner
    /// on a fresh address still gets in.
    public var signInAccountAttackThreshold = 50
    /// The per-account throttling window, seconds (15 minutes).
    public var signInAccountWindow = 900
    /// Failed sign-ins per client address inside `signInAddressWindow` after which every sign-in
    /// from that address is refused without checking the password (credential stuffing).
    public var signInAddressFailureLimit = 30
    /// The per-address throttling window, seconds (15 minutes).
    public var signInAddressWindow = 900
    /// Lifetime of a one-time native sign-in nonce (`POST /native/nonce`), seconds.
    public var nativeNonceLifetime = 300
    /// Nonces one client address may request inside `nativeNonceWindow`; only requests from
    /// registered native-sign-in clients count.
    public var nativeNonceRateLimit = 60
    /// The native nonce rate-limit window, seconds.
    public var nativeNonceWindow = 60

    /// Creates a policy with defaults for everything but the issuer.
    public init(issuer: String) { self.issuer = issuer }
}

/// A JWS algorithm name as configured.
public typealias SignatureAlgorithmName = String
