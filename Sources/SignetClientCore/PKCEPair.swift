import SignetCrypto

/// A PKCE code verifier and its S256 challenge (RFC 7636 §4.1, §4.2).
public struct PKCEPair: Sendable {
    /// The code verifier: 43 characters of base64url (32 random bytes). Secret until redeemed.
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`.
    public let challenge: String
    /// Always `S256`.
    public let method = "S256"

    /// A pair for a given verifier (for fixed test vectors such as RFC 7636 Appendix B).
    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
    }

    /// A fresh random pair.
    public static func generate() -> PKCEPair {
        PKCEPair(verifier: Base64URL.encode(SecureRandom.bytes(32)))
    }
}
