import Foundation

/// What a `JWTVerifier` requires of a token besides a valid signature. Every check is explicit.
public struct VerificationPolicy: Sendable, TokenLimited {
    /// Required exact `iss`, or nil to skip the check.
    public var issuer: String?
    /// A value that must appear in `aud`, or nil to skip the check.
    public var audience: String?
    /// Accepted `typ` header values, or nil to accept any (including none). Compared
    /// case-insensitively with an optional `application/` prefix removed (RFC 7515 §4.1.9), so
    /// `at+jwt` matches `application/at+jwt` (RFC 9068 §4).
    public var allowedTypes: Set<String>?
    /// The clock, the skew tolerated for `exp`, `nbf` and `iat`, and the longest accepted token
    /// (`leeway`, `maxTokenBytes` and `clock` read and write them); a policy built for another
    /// one's checks takes that one's limits as they are.
    public var limits: TokenLimits
    /// Whether a token without `exp` is rejected.
    public var requireExp: Bool
    /// Whether a token without `kid` is verified with the verifier's key when it holds exactly
    /// one. OpenID Connect Core §10.1 lets a provider whose JWK Set holds a single key leave `kid`
    /// out of its ID tokens; everything else (Signet's own tokens) must name its key. Off by default.
    public var allowsMissingKeyIDWithSingleKey = false

    /// Creates a policy. Defaults: no issuer, audience or type check, 60 s leeway, `exp` required,
    /// 16 KiB maximum, the system clock.
    public init(issuer: String? = nil, audience: String? = nil, allowedTypes: Set<String>? = nil,
                leeway: TimeInterval = 60, requireExp: Bool = true, maxTokenBytes: Int = 16 * 1024,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.issuer = issuer
        self.audience = audience
        self.allowedTypes = allowedTypes
        self.limits = TokenLimits(leeway: leeway, maxTokenBytes: maxTokenBytes, clock: clock)
        self.requireExp = requireExp
    }

    /// Whether a token whose `typ` header is `type` passes `allowedTypes` (always, when nil; never
    /// without a `typ`, when set).
    func acceptsType(_ type: String?) -> Bool {
        guard let allowedTypes else { return true }
        guard let type else { return false }
        let wanted = Self.normalizedType(type)
        return allowedTypes.contains { Self.normalizedType($0) == wanted }
    }

    /// Lowercased, without an `application/` prefix.
    private static func normalizedType(_ type: String) -> String {
        let lower = type.lowercased()
        return lower.hasPrefix("application/") ? String(lower.dropFirst("application/".count)) : lower
    }
}
