/// A redirect URI registered for a client, checked against the native-app rules of RFC 8252.
///
/// Three kinds are accepted at registration:
/// - claimed `https` URLs (`https://app.example.com/callback`);
/// - private-use schemes in reverse-domain form (`com.example.app:/callback`, RFC 8252 §7.1);
/// - `http` on a loopback IP literal (`http://127.0.0.1/callback`, `http://[::1]:8765/cb`, §7.3).
///
/// Nothing is normalised: matching is by exact string, except that a loopback IP literal matches
/// any port (RFC 8252 §7.3).
public struct RedirectURI: Sendable, Hashable, CustomStringConvertible {
    /// What kind of redirect URI this is.
    public enum Kind: String, Sendable {
        /// A claimed https URL (universal link / app link / web).
        case claimedHTTPS = "https"
        /// A reverse-domain private-use scheme.
        case privateUseScheme = "private-use"
        /// http on 127.0.0.1 or [::1].
        case loopback = "loopback"
    }

    /// The exact registered string.
    public let value: String
    /// The kind, decided at registration.
    public let kind: Kind
    let parts: Parts

    /// The string form.
    public var description: String { value }

    /// The URI's scheme in lower case.
    public var scheme: String { parts.scheme }

    /// Validates a URI for registration. Throws a message naming the rule that was broken.
    public init(registering value: String) throws(RedirectURIError) {
        let parts = try Parts(parsing: value)
        self.value = value
        self.parts = parts
        guard parts.fragment == nil else { throw .init("must not contain a fragment (RFC 6749 §3.1.2)") }
        guard !value.contains("*") else { throw .init("must not contain wildcards") }
        guard parts.userInfo == nil else { throw .init("must not contain user information ('@')") }
        switch parts.scheme {
        case "https":
            guard let host = parts.host, !host.isEmpty else { throw .init("an https URI needs a host") }
            kind = .claimedHTTPS
        case "http":
            // RFC 8252 §7.3 and §8.3: http only for loopback IP literals, not "localhost".
            guard let host = parts.host, RedirectURI.loopbackHosts.contains(host) else {
                throw .init("http is allowed only for the loopback IP literals 127.0.0.1 and [::1] (RFC 8252 §7.3)")
            }
            kind = .loopback
        default:
            // RFC 8252 §7.1: private-use schemes are reverse domain names.
            let labels = parts.scheme.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else {
                throw .init("a private-use scheme must be a reverse domain name such as com.example.app (RFC 8252 §7.1)")
            }
            guard parts.host == nil || parts.host == "" else {
                throw .init("a private-use scheme URI has the form com.example.app:/path, without an authority")
            }
            kind = .privateUseScheme
        }
    }

    /// True when a redirect URI sent in a request matches this registered one.
    ///
    /// Exact string comparison, except loopback: RFC 8252 §7.3, any port for loopback IP literals.
    public func matches(_ requested: String) -> Bool {
        if requested == value { return true }
        guard kind == .loopback, let other = try? Parts(parsing: requested) else { return false }
        guard other.scheme == "http", other.schemeText == parts.schemeText, other.host == parts.host,
              other.userInfo == nil, other.fragment == nil,
              other.pathAndQuery == parts.pathAndQuery, let port = other.port else { return false }
        return port.isEmpty || RedirectURI.isValidPort(port)
    }

    static let loopbackHosts: Set<String> = ["127.0.0.1", "[::1]"]

    static func isValidPort(_ text: Substring) -> Bool {
        guard (1...5).contains(text.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let number = Int(text) else { return false }
        return (1...65535).contains(number) && !(text.count > 1 && text.first == "0")
    }
}

/// Why a redirect URI was refused at registration.
public struct RedirectURIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rule that was broken.
    public let message: String
    init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

extension RedirectURI {
    /// A URI split into its RFC 3986 parts, without any normalisation.
    struct Parts: Sendable, Hashable {
        var scheme: String
        var schemeText: Substring
        var userInfo: Substring?
        var host: String?
        var port: Substring?
        var pathAndQuery: Substring
        var fragment: Substring?

        init(parsing value: String) throws(RedirectURIError) {
            guard !value.isEmpty, value.utf8.count <= 2048 else { throw .init("must be 1 to 2048 characters") }
            // Printable ASCII only; no spaces, quotes, angle brackets or backslashes.
            let forbidden: Set<UInt8> = [0x20, 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D]
            guard value.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !forbidden.contains($0) }) else {
                throw .init("must contain only printable ASCII characters without spaces")
            }
            guard let colon = value.firstIndex(of: ":") else { throw .init("must be an absolute URI with a scheme") }
            schemeText = value[..<colon]
            guard let first = schemeText.utf8.first, RedirectURI.Parts.isAlpha(first),
                  schemeText.utf8.allSatisfy({ RedirectURI.Parts.isAlpha($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
            else { throw .init("has an invalid scheme") }
            scheme = schemeText.lowercased()
            var rest = value[value.index(after: colon)...]
            if let hash = rest.firstIndex(of: "#") {
                fragment = rest[rest.index(after: hash)...]
                rest = rest[..<hash]
            }
            if rest.hasPrefix("//") {
                let afterSlashes = rest.dropFirst(2)
                let end = afterSlashes.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterSlashes.endIndex
                var authority = afterSlashes[..<end]
                pathAndQuery = afterSlashes[end...]
                if let at = authority.lastIndex(of: "@") {
                    userInfo = authority[..<at]
                    authority = authority[authority.index(after: at)...]
                }
                if authority.hasPrefix("[") {
                    guard let close = authority.firstIndex(of: "]") else { throw .init("has an unterminated IPv6 literal") }
                    host = String(authority[...close]).lowercased()
                    let after = authority[authority.index(after: close)...]
                    if after.hasPrefix(":") { port = after.dropFirst() } else if !after.isEmpty { throw .init("has an invalid authority") }
                } else if let portColon = authority.lastIndex(of: ":") {
                    host = String(authority[..<portColon]).lowercased()
                    port = authority[authority.index(after: portColon)...]
                } else {
                    host = String(authority).lowercased()
                }
                if let port, !port.isEmpty, !RedirectURI.isValidPort(port) { throw .init("has an invalid port") }
            } else {
                pathAndQuery = rest
            }
        }

        static func isAlpha(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    }
}
