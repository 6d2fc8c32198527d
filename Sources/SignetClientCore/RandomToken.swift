import SignetCrypto

/// Random values for `state` and `nonce` parameters.
public enum RandomToken {
    /// base64url of `byteCount` random bytes (default 32, so 43 characters).
    public static func make(byteCount: Int = 32) -> String {
        Base64URL.encode(SecureRandom.bytes(byteCount))
    }

    /// Lowercase hex SHA-256 of the UTF-8 of `value`: what Sign in with Apple expects as the
    /// request `nonce` for a raw nonce, and what it then puts in the ID token's `nonce` claim.
    public static func sha256Hex(_ value: String) -> String { Digest.sha256Hex(value) }
}
