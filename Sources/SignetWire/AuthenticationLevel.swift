/// How strongly a session's user was authenticated, as Signet's `acr` values (OpenID Connect Core
/// §2: `acr`; §3.1.2.1: `acr_values`), ordered: a stronger level also meets a weaker one.
public enum AuthenticationLevel: Int, Sendable, Comparable, CaseIterable {
    /// One factor: a password, an upstream provider, an email code.
    case password = 0
    /// Two factors: a first factor and a TOTP or recovery code.
    case multiFactor = 1
    /// Phishing-resistant: a passkey (WebAuthn, bound to the origin), which is also multi-factor
    /// with user verification.
    case phishingResistant = 2

    /// The `acr` value.
    public var acr: String {
        switch self {
        case .password: "urn:signet:acr:pwd"
        case .multiFactor: "urn:signet:acr:mfa"
        case .phishingResistant: "urn:signet:acr:phr"
        }
    }

    /// The values advertised as `acr_values_supported`, weakest first.
    public static var supportedValues: [String] { allCases.map(\.acr) }

    /// The level an `acr` value names, or nil for a value Signet does not know.
    public init?(acr: String) {
        guard let level = Self.allCases.first(where: { $0.acr == acr }) else { return nil }
        self = level
    }

    /// The level a session's `amr` (RFC 8176) reaches: `hwk` or `swk` (a passkey) is
    /// phishing-resistant; `mfa` (or `otp` beside another method) is multi-factor; anything else is one factor.
    public init(amr: [String]) {
        if amr.contains("hwk") || amr.contains("swk") {
            self = .phishingResistant
        } else if amr.contains("mfa") || (amr.contains("otp") && amr.count > 1) {
            self = .multiFactor
        } else {
            self = .password
        }
    }

    /// The level an `acr_values` request asks for: the weakest known value listed (OpenID Connect
    /// Core §3.1.2.1: the values are in order of preference, so any of them is acceptable);
    /// nil when none is known (unknown values are ignored: `acr` is a voluntary claim).
    public static func requested(_ acrValues: [String]) -> AuthenticationLevel? {
        acrValues.compactMap(AuthenticationLevel.init(acr:)).min()
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
