import Foundation
import SignetFormEncoding
import SignetMacros

/// A `Set-Cookie` header value (RFC 6265 §4.1).
@MemberwiseInit
public struct SetCookie: Sendable, Equatable {
    /// The `SameSite` attribute.
    public enum SameSite: String, Sendable {
        /// Sent only with same-site requests.
        case strict = "Strict"
        /// Also sent with top-level cross-site navigations using safe methods.
        case lax = "Lax"
        /// Sent with every request; browsers require `Secure` with it.
        case none = "None"
    }

    /// Cookie name (a token).
    public var name: String
    /// Cookie value; may be a secret, so `description` redacts it.
    public var value: String
    /// `Path` attribute.
    public var path: String? = "/"
    /// `Max-Age` in seconds (0 or negative deletes the cookie).
    public var maxAge: Int? = nil
    /// `Expires` attribute, formatted as an IMF-fixdate.
    public var expires: Date? = nil
    /// `Domain` attribute.
    public var domain: String? = nil
    /// `Secure` attribute.
    public var secure: Bool = true
    /// `HttpOnly` attribute.
    public var httpOnly: Bool = true
    /// `SameSite` attribute.
    public var sameSite: SameSite? = .lax

    /// The header value, e.g. `sid=abc; Path=/; Max-Age=3600; Secure; HttpOnly; SameSite=Lax`.
    public var headerValue: String {
        var out = "\(name)=\(value)"
        if let path { out += "; Path=\(path)" }
        if let domain { out += "; Domain=\(domain)" }
        if let maxAge { out += "; Max-Age=\(maxAge)" }
        if let expires { out += "; Expires=\(InternetDate.imfFixdate(expires))" }
        if secure { out += "; Secure" }
        if httpOnly { out += "; HttpOnly" }
        if let sameSite { out += "; SameSite=\(sameSite.rawValue)" }
        return out
    }

    /// `name` with the `__Host-` prefix when `secure`, else `name` itself (RFC 6265bis §4.1.3.2:
    /// a `__Host-` cookie is only kept when it is `Secure`, has `Path=/` and no `Domain`, so it
    /// cannot be set over http or for another host). The one place a cookie's name on an https
    /// issuer is decided.
    public static func hostPrefixed(_ name: String, secure: Bool) -> String {
        secure ? "__Host-" + name : name
    }

    /// A cookie that deletes `name` (empty value, `Max-Age=0`, epoch `Expires`).
    public static func deleting(_ name: String, path: String? = "/", domain: String? = nil) -> SetCookie {
        SetCookie(name: name, value: "", path: path, maxAge: 0, expires: Date(timeIntervalSince1970: 0), domain: domain)
    }
}

extension SetCookie: CustomStringConvertible {
    /// The header value with the cookie value redacted.
    public var description: String {
        var copy = self
        copy.value = "<redacted>"
        return copy.headerValue
    }
}
