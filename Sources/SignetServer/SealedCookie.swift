import SignetCrypto
import SignetHTTP

/// A short-lived HttpOnly cookie whose value is sealed (AES-256-GCM under its own subkey of the
/// browser key, bound to an associated value), so what it keeps never appears in a URL, a log or
/// the database, and a cookie made for one associated value opens for no other. Used for the
/// email typed into a failed sign-in (`SignInEmail`) and an invitation's token across its
/// sign-in (`InvitationCookie`).
struct SealedCookie: Sendable {
    let key: [UInt8]
    let secure: Bool
    /// The name without the `__Host-` prefix, which an https issuer adds.
    let baseName: String
    /// Seconds the cookie lives.
    let lifetime: Int
    let sameSite: SetCookie.SameSite
    /// The longest text kept, in bytes.
    let maximumBytes: Int

    /// `purpose` names the subkey (`signet/sign-in-email`, …).
    init(browserKey: [UInt8], purpose: String, name: String, lifetime: Int, sameSite: SetCookie.SameSite, maximumBytes: Int, secure: Bool) {
        key = HMAC.sha256(key: browserKey, message: Array(purpose.utf8))
        baseName = name
        self.lifetime = lifetime
        self.sameSite = sameSite
        self.maximumBytes = maximumBytes
        self.secure = secure
    }

    var name: String { SetCookie.hostPrefixed(baseName, secure: secure) }

    /// The cookie that keeps `text` for `associatedData`; nil for an empty or oversized text.
    func cookie(keeping text: String, associatedData: String) -> SetCookie? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumBytes,
              let sealed = try? AESGCM.seal(bytes, key: key, associatedData: Array(associatedData.utf8)) else { return nil }
        return SetCookie(name: name, value: Base64URL.encode(sealed), path: "/", maxAge: lifetime, secure: secure, httpOnly: true, sameSite: sameSite)
    }

    /// The text kept for `associatedData` in this request's cookie, or nil.
    func text(_ request: HTTPRequest, associatedData: String) -> String? {
        guard let value = request.cookies[name], value.utf8.count <= 2 * maximumBytes + 64, let sealed = Base64URL.decode(value),
              let bytes = try? AESGCM.open(sealed, key: key, associatedData: Array(associatedData.utf8)) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
