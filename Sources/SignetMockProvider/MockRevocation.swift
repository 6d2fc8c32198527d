/// One call to the mock's `POST /auth/revoke` (Apple's token revocation), as received.
public struct MockRevocation: Sendable, Equatable {
    /// The `client_id` sent.
    public let clientID: String?
    /// The `token` sent.
    public let token: String
    /// The `token_type_hint` sent.
    public let tokenTypeHint: String?
    /// Whether the client id and the client-secret JWT (signature and claims) checked out.
    public let clientSecretValid: Bool
    /// Whether the token was one the mock had handed out and not yet revoked.
    public let tokenKnown: Bool
}
