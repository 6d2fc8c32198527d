/// Where mail goes: `smtp://host[:port]` (STARTTLS, required unless the host is loopback) or
/// `smtps://host[:port]` (TLS from the first byte, RFC 8314). No user name, password, path or
/// query in the URL: credentials are separate settings, so the URL can be printed.
public struct SMTPEndpoint: Sendable, Equatable {
    /// True for `smtps://`.
    public let implicitTLS: Bool
    /// The host name or address (an IPv6 address without its brackets).
    public let host: String
    /// The port: given, or 587 for `smtp://` (submission, RFC 6409) and 465 for `smtps://`.
    public let port: Int

    /// Parses `url`; the error says what is wrong without repeating the URL.
    public init(_ url: String) throws(MailError) {
        let rest: Substring
        if url.hasPrefix("smtp://") { implicitTLS = false; rest = url.dropFirst(7) }
        else if url.hasPrefix("smtps://") { implicitTLS = true; rest = url.dropFirst(8) }
        else { throw MailError("the mail URL must start with smtp:// or smtps://", transient: false) }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.contains("@") else {
            throw MailError("the mail URL may not hold a user name or password (use mail.username and mail.password)", transient: false)
        }
        guard !authority.contains("/"), !authority.contains("?"), !authority.contains("#") else {
            throw MailError("the mail URL may not have a path, query or fragment", transient: false)
        }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw MailError("the mail URL's IPv6 address lacks its ]", transient: false) }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty {
                throw MailError("the mail URL has text after its IPv6 address", transient: false)
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty, hostPart.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw MailError("the mail URL has no host", transient: false)
        }
        host = String(hostPart)
        if let portPart {
            guard let value = Int(portPart), (1...65535).contains(value) else {
                throw MailError("the mail URL's port must be a number from 1 to 65535", transient: false)
            }
            port = value
        } else {
            port = implicitTLS ? 465 : 587
        }
    }

    /// `localhost`, `127.0.0.0/8` or `::1`: mail that never leaves the machine.
    public var isLoopback: Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether STARTTLS must succeed before anything is sent: on `smtp://` to any host that is not
    /// loopback (RFC 8314 §3: no cleartext submission across a network).
    public var requiresSTARTTLS: Bool { !implicitTLS && !isLoopback }

    /// The URL for libcurl, with the name to say in EHLO as its path.
    func curlURL(ehloName: String) -> String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        return (implicitTLS ? "smtps://" : "smtp://") + "\(hostText):\(port)/" + ehloName
    }
}
