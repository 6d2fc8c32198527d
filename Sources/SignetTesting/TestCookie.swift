import Foundation
import SignetMacros

/// One cookie as a browser keeps it (RFC 6265 §5.3).
@MemberwiseInit
public struct TestCookie: Sendable, Equatable, CustomStringConvertible {
    /// The name.
    public var name: String
    /// The value, as sent.
    public var value: String
    /// The host it belongs to (lowercased, without a leading dot).
    public var domain: String
    /// True when there was no `Domain` attribute: sent only to exactly `domain`.
    public var hostOnly: Bool = true
    /// The path it is sent under.
    public var path: String = "/"
    /// Sent only over https (or to a loopback host, as browsers do).
    public var secure: Bool = false
    /// `HttpOnly` (kept for assertions; irrelevant to a client without scripts).
    public var httpOnly: Bool = false
    /// The `SameSite` attribute as written, if any.
    public var sameSite: String? = nil
    /// When it expires, or nil for a session cookie.
    public var expires: Date? = nil

    /// Parses one `Set-Cookie` value received from `url`; nil if it is malformed or its `Domain`
    /// does not cover the host (RFC 6265 §5.2, §5.3). `now` turns `Max-Age` into an expiry.
    public init?(setCookie header: String, from url: URL, now: Date) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, let equals = parts[0].firstIndex(of: "=") else { return nil }
        let name = parts[0][..<equals].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, let host = url.host?.lowercased() else { return nil }
        self.init(name: name, value: String(parts[0][parts[0].index(after: equals)...]), domain: host,
                  path: TestCookie.defaultPath(for: url))
        parts.removeFirst()
        var maxAge: Int?
        var expiresAttribute: Date?
        for attribute in parts where !attribute.isEmpty {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = pieces[0].lowercased()
            let argument = pieces.count > 1 ? pieces[1] : ""
            switch key {
            case "path" where argument.hasPrefix("/"): path = argument
            case "domain" where !argument.isEmpty:
                let wanted = (argument.hasPrefix(".") ? String(argument.dropFirst()) : argument).lowercased()
                guard host == wanted || host.hasSuffix("." + wanted) else { return nil }
                domain = wanted
                hostOnly = false
            case "max-age": maxAge = Int(argument)
            case "expires": expiresAttribute = TestCookie.parseHTTPDate(argument)
            case "secure": secure = true
            case "httponly": httpOnly = true
            case "samesite": sameSite = argument
            default: break
            }
        }
        // RFC 6265bis §5.7: a Secure cookie can only be set from a secure origin.
        if secure && !TestCookie.isSecureContext(url) { return nil }
        // RFC 6265 §5.3 step 3: Max-Age wins over Expires; zero or negative means "already expired".
        if let maxAge {
            expires = maxAge <= 0 ? Date.distantPast : now.addingTimeInterval(TimeInterval(maxAge))
        } else {
            expires = expiresAttribute
        }
    }

    /// Whether this cookie goes with a request to `url` at `now`.
    public func matches(_ url: URL, now: Date) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        if let expires, expires <= now { return false }
        if secure && !TestCookie.isSecureContext(url) { return false }
        let domainMatches = hostOnly ? host == domain : (host == domain || host.hasSuffix("." + domain))
        return domainMatches && TestCookie.pathMatches(requestPath: url.path.isEmpty ? "/" : url.path, cookiePath: path)
    }

    /// `name=value; Path=…` and the flags; the value is shown, since test cookies are not secrets worth hiding.
    public var description: String {
        var text = "\(name)=\(value); Domain=\(domain); Path=\(path)"
        if secure { text += "; Secure" }
        if httpOnly { text += "; HttpOnly" }
        if let sameSite { text += "; SameSite=\(sameSite)" }
        return text
    }

    /// Whether `url` is a secure context for `Secure` cookies: https, or a loopback host over
    /// http, which current browsers treat as potentially trustworthy (W3C Secure Contexts §3.2).
    public static func isSecureContext(_ url: URL) -> Bool {
        if url.scheme?.lowercased() == "https" { return true }
        guard let host = url.host?.lowercased() else { return false }
        return host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// RFC 6265 §5.1.4: the directory of the request path.
    static func defaultPath(for url: URL) -> String {
        let path = url.path
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265 §5.1.4 path-match.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    static func parseHTTPDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
