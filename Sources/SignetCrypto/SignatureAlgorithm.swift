/// The JWS signature algorithms Signet supports (RFC 7518 §3, RFC 8037 §3.1).
///
/// There is deliberately no `none` and no HMAC case: a token can only be signed or verified with an
/// asymmetric key whose algorithm is pinned by the key.
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt.
    case ps256 = "PS256"
    /// ECDSA on P-256 with SHA-256; signatures are the 64-byte JOSE `r || s` form.
    case es256 = "ES256"
    /// Ed25519 (RFC 8032) as used by JOSE (RFC 8037).
    case edDSA = "EdDSA"

    /// Whether a key of `type` can produce or check signatures with this algorithm.
    public func fits(_ type: KeyType) -> Bool {
        switch (self, type) {
        case (.rs256, .rsa), (.ps256, .rsa), (.es256, .p256), (.edDSA, .ed25519): true
        default: false
        }
    }
}
