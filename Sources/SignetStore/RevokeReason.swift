/// Revocation reasons the stores themselves write. Callers may use any other string.
public enum RevokeReason {
    /// A rotated refresh token was presented outside the grace window (RFC 9700 §4.14.2).
    public static let refreshTokenReuse = "refresh_token_reuse"
    /// An authorization code was redeemed twice (RFC 6749 §4.1.2).
    public static let codeReplay = "code_replay"
}
