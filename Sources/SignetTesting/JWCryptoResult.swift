import SignetJOSE

/// What Python jwcrypto said about one token.
public struct JWCryptoResult: Sendable {
    /// Whether jwcrypto accepted the signature (and the claims, when checked).
    public let ok: Bool
    /// The protected header, when accepted.
    public let header: JSONValue?
    /// The claims, when accepted.
    public let claims: JSONValue?
    /// jwcrypto's exception, when refused.
    public let error: String?

    /// Creates a result.
    public init(ok: Bool, header: JSONValue?, claims: JSONValue?, error: String?) {
        self.ok = ok
        self.header = header
        self.claims = claims
        self.error = error
    }
}
