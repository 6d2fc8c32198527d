/// Revocation reasons the stores and the user service write. Callers may use any other string.
public enum RevokeReason {
    /// A rotated refresh token was presented outside the grace window (RFC 9700 §4.14.2).
    public static let refreshTokenReuse = "refresh_token_reuse"
    /// An authorization code was redeemed twice (RFC 6749 §4.1.2).
    public static let codeReplay = "code_replay"
    /// The user was disabled (`signet users disable`).
    public static let userDisabled = "user_disabled"
    /// The user's password was changed (`signet users set-password`).
    public static let passwordChanged = "password_changed"
    /// An operator ended the user's sessions and tokens (`POST /admin/v1/users/{id}/revoke`).
    public static let adminRevoked = "admin_revoked"
    /// An account that was never confirmed was proven by another channel (`UnconfirmedAccountClaim`).
    public static let accountClaimed = "account_claimed"
}
