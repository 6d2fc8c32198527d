import SignetCrypto

/// Proof Key for Code Exchange (RFC 7636), S256 only.
public enum PKCE {
    /// Checks a `code_challenge` and its method. `plain` and a missing method are refused: with
    /// `plain` the challenge is the verifier, so anyone who sees the request can redeem the code.
    public static func validateChallenge(_ challenge: String, method: String?) throws(OAuthError) {
        guard let method else {
            throw OAuthError.invalidRequest("code_challenge_method is required and must be S256.")
        }
        guard method == "S256" else {
            throw OAuthError.invalidRequest("code_challenge_method must be S256; plain is not supported.")
        }
        // base64url of a SHA-256 digest is exactly 43 characters.
        guard challenge.utf8.count == 43, challenge.utf8.allSatisfy(isBase64URL) else {
            throw OAuthError.invalidRequest("code_challenge must be the base64url SHA-256 of the code verifier.")
        }
    }

    /// True when `verifier` is well formed (RFC 7636 §4.1: 43–128 unreserved characters) and its
    /// S256 transform equals `challenge`. The comparison is constant-time.
    public static func verify(verifier: String, challenge: String) -> Bool {
        guard isWellFormedVerifier(verifier) else { return false }
        let computed = Array(Base64URL.encode(Digest.sha256(Array(verifier.utf8))).utf8)
        return constantTimeEquals(computed, Array(challenge.utf8))
    }

    /// RFC 7636 §4.1: `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`, 43 to 128 characters.
    public static func isWellFormedVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy { isBase64URL($0) || $0 == 0x2E || $0 == 0x7E }
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
    }
}
