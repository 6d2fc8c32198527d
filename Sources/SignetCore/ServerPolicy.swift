import SignetCrypto

/// The lifetimes and algorithms the authorization server applies. The configured values have no
/// defaults here: they come from the configuration (`SignetConfiguration.policy` in SignetServer,
/// whose settings declare the defaults once). The sign-in and nonce limits below are fixed rules,
/// not settings.
public struct ServerPolicy: Sendable {
    /// The issuer identifier.
    public var issuer: String
    /// Pending authorization requests, seconds.
    public var authorizationRequestLifetime: Int
    /// Authorization codes, seconds.
    public var authorizationCodeLifetime: Int
    /// Access tokens, seconds.
    public var accessTokenLifetime: Int
    /// ID tokens, seconds.
    public var idTokenLifetime: Int
    /// Refresh tokens (idle), seconds.
    public var refreshTokenLifetime: Int
    /// Refresh token families (absolute), seconds.
    public var refreshFamilyLifetime: Int
    /// Rotation grace window, seconds.
    public var refreshGrace: Int
    /// SSO session idle timeout, seconds.
    public var sessionIdle: Int
    /// SSO session absolute timeout, seconds.
    public var sessionAbsolute: Int
    /// Access token signature algorithm.
    public var accessTokenAlgorithm: SignatureAlgorithm
    /// Default ID token algorithm (clients may choose their own).
    public var idTokenAlgorithm: SignatureAlgorithm
    /// `mfa.required`: every user must use a second factor; one without is sent to enrolment
    /// before a code is issued.
    public var mfaRequired: Bool
    /// `mfa.attempt_limit`: second-factor attempts (TOTP or recovery codes, right or wrong) per
    /// account inside `secondFactorAttemptWindow`; a success gives its attempt back.
    public var secondFactorAttemptLimit: Int
    /// `mfa.attempt_window`, seconds.
    public var secondFactorAttemptWindow: Int
    /// `mfa.lock_after`: wrong second-factor codes in a row after which the TOTP factor locks
    /// (NIST SP 800-63B §5.2.2: at most 100) until a recovery code or an operator unlocks it.
    public var secondFactorLockAfter = 20
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

    /// Creates a policy from configured values (see `SignetConfiguration.policy`).
    public init(issuer: String, authorizationRequestLifetime: Int, authorizationCodeLifetime: Int, accessTokenLifetime: Int,
                idTokenLifetime: Int, refreshTokenLifetime: Int, refreshFamilyLifetime: Int, refreshGrace: Int,
                sessionIdle: Int, sessionAbsolute: Int, accessTokenAlgorithm: SignatureAlgorithm, idTokenAlgorithm: SignatureAlgorithm,
                mfaRequired: Bool, secondFactorAttemptLimit: Int, secondFactorAttemptWindow: Int) {
        self.issuer = issuer
        self.authorizationRequestLifetime = authorizationRequestLifetime
        self.authorizationCodeLifetime = authorizationCodeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshFamilyLifetime = refreshFamilyLifetime
        self.refreshGrace = refreshGrace
        self.sessionIdle = sessionIdle
        self.sessionAbsolute = sessionAbsolute
        self.accessTokenAlgorithm = accessTokenAlgorithm
        self.idTokenAlgorithm = idTokenAlgorithm
        self.mfaRequired = mfaRequired
        self.secondFactorAttemptLimit = secondFactorAttemptLimit
        self.secondFactorAttemptWindow = secondFactorAttemptWindow
    }
}
