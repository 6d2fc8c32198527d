import SignetJOSE
import SignetMacros

/// What Python jwcrypto said about one token.
@MemberwiseInit
public struct JWCryptoResult: Sendable {
    /// Whether jwcrypto accepted the signature (and the claims, when checked).
    public let ok: Bool
    /// The protected header, when accepted.
    public let header: JSONValue?
    /// The claims, when accepted.
    public let claims: JSONValue?
    /// jwcrypto's exception, when refused.
    public let error: String?
}
