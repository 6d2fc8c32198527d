import SignetCrypto


/// CSRF protection for Signet's own forms (double-submit with a keyed binding).
///
/// The browser holds a random value in an HttpOnly cookie; each form carries
/// `base64url(HMAC(browserKey, cookieValue + ":" + purpose))` in a hidden field, where `purpose`
/// is the pending request handle (or a fixed word such as `logout`). A POST is accepted only when
/// both are present and the field matches, compared in constant time. Another site can neither
/// read the cookie nor compute the field without the server's key.
public struct CSRFTokens: Sendable {
    private let key: [UInt8]
    private let random: any RandomSource

    /// Creates the helper from `MasterKey.browserKey`.
    public init(key: [UInt8], random: any RandomSource) {
        self.key = key
        self.random = random
    }

    /// A new browser-binding cookie value: 32 random bytes, base64url.
    public func newBrowserValue() -> String { Base64URL.encode(random.bytes(32)) }

    /// Whether a cookie value has the shape `newBrowserValue` produces.
    public func isBrowserValue(_ value: String?) -> Bool {
        guard let value, value.utf8.count == 43 else { return false }
        return Base64URL.decode(value)?.count == 32
    }

    /// The hidden-field value for a cookie value and a purpose.
    public func token(browserValue: String, purpose: String) -> String {
        Base64URL.encode(HMAC.sha256(key: key, message: Array((browserValue + ":" + purpose).utf8)))
    }

    /// Whether the submitted field matches the cookie for the purpose (constant time).
    public func verify(token: String?, browserValue: String?, purpose: String) -> Bool {
        guard let token, let browserValue, isBrowserValue(browserValue) else { return false }
        let expected = Array(self.token(browserValue: browserValue, purpose: purpose).utf8)
        return constantTimeEquals(Array(token.utf8), expected)
    }
}
