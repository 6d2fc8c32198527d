/// A checked RP-Initiated Logout request (OpenID Connect RP-Initiated Logout 1.0 §2).
public struct EndSessionRequest: Sendable {
    /// The verified `id_token_hint`, if one was sent.
    public var hint: IDTokenHint?
    /// The client, from `client_id` or the hint's audience, if known.
    public var client: Client?
    /// A `post_logout_redirect_uri` registered for `client`, exactly as sent.
    public var postLogoutRedirectURI: String?
    /// `state`, appended to the post-logout redirect.
    public var state: String?

    /// Creates the value.
    public init(hint: IDTokenHint?, client: Client?, postLogoutRedirectURI: String?, state: String?) {
        self.hint = hint
        self.client = client
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.state = state
    }
}
