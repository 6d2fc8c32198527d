import SignetMacros

/// A checked RP-Initiated Logout request (OpenID Connect RP-Initiated Logout 1.0 §2).
@MemberwiseInit
public struct EndSessionRequest: Sendable {
    /// The verified `id_token_hint`, if one was sent.
    public var hint: IDTokenHint?
    /// The client, from `client_id` or the hint's audience, if known.
    public var client: Client?
    /// A `post_logout_redirect_uri` registered for `client`, exactly as sent.
    public var postLogoutRedirectURI: String?
    /// `state`, appended to the post-logout redirect.
    public var state: String?
}
