import SignetCrypto
import SignetHTTP

/// The email typed into a sign-in that failed, kept for the form shown again: sealed (AES-256-GCM
/// under a subkey of the browser key, the pending request's handle as associated data) in a
/// short-lived HttpOnly `SameSite=Strict` cookie, so it never appears in a URL, a log or the
/// database, and a cookie from one sign-in request fills no other request's form.
struct SignInEmail: Sendable {
    /// The longest email kept (RFC 5321 §4.5.3.1.3 limits a path to 256 octets).
    static let maximumBytes = 256
    /// How long the typed email is kept.
    static let lifetime = 600

    let key: [UInt8]
    let secure: Bool

    init(browserKey: [UInt8], secure: Bool) {
        key = HMAC.sha256(key: browserKey, message: Array("signet/sign-in-email".utf8))
        self.secure = secure
    }

    var cookieName: String { secure ? "__Host-signet_email" : "signet_email" }

    /// The cookie that keeps `email` for the request `handle`; nil for an empty or oversized email.
    func cookie(keeping email: String, handle: String) -> SetCookie? {
        let bytes = Array(email.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumBytes,
              let sealed = try? AESGCM.seal(bytes, key: key, associatedData: Array(handle.utf8)) else { return nil }
        return SetCookie(name: cookieName, value: Base64URL.encode(sealed), path: "/", maxAge: Self.lifetime,
                         secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The email kept for `handle` in this request's cookie, or nil.
    func email(_ request: HTTPRequest, handle: String) -> String? {
        guard let value = request.cookies[cookieName], value.utf8.count <= 2 * Self.maximumBytes,
              let sealed = Base64URL.decode(value),
              let bytes = try? AESGCM.open(sealed, key: key, associatedData: Array(handle.utf8)) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
