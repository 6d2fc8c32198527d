import SignetWire

/// The redirect-URI parser: input is `registered` LF `requested`. Registration either refuses the
/// URI with a message or gives a URI that matches itself; a request matches only the exact string,
/// except on loopback, where only the port may differ (RFC 8252 §7.3): a match that is not the
/// exact string is the registered URI with another valid port or none, and a registered loopback
/// URI matches itself with any valid port.
enum RedirectFuzz {
    static func run(_ input: [UInt8]) {
        let split = input.firstIndex(of: 0x0A) ?? input.endIndex
        let registered = String(decoding: input[..<split], as: UTF8.self)
        let requested = split < input.endIndex ? String(decoding: input[(split + 1)...], as: UTF8.self) : ""
        _ = try? RedirectURI(registering: requested)
        guard let uri = try? RedirectURI(registering: registered) else { return }
        require(uri.matches(registered), "a registered redirect URI does not match itself")
        require(uri.kind != .loopback || uri.scheme == "http", "a loopback redirect URI that is not http")
        if uri.matches(requested), requested != registered {
            require(uri.kind == .loopback, "a non-loopback redirect URI matched another string")
            let (registeredRest, _) = withoutPort(registered)
            let (requestedRest, port) = withoutPort(requested)
            require(registeredRest == requestedRest, "a loopback redirect URI matched a string that differs in more than the port")
            require(port.map(isPort) ?? true, "a loopback redirect URI matched an invalid port")
        }
        if uri.kind == .loopback {
            let (rest, _) = withoutPort(registered)
            let port = 1 + Int(input.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF }) % 65535
            require(uri.matches(with(rest, port: "\(port)")), "a loopback redirect URI does not match itself on another port")
            for bad in ["0", "65536", "0\(port)", "+\(port)", "\(port)x"] {
                require(!uri.matches(with(rest, port: bad)), "a loopback redirect URI matched the port \(bad)")
            }
        }
    }

    /// The string without the authority's `:port`, and the port's text (nil when there is none):
    /// the authority runs from `//` to the first `/`, `?` or `#`, and a port follows its last `:`
    /// after any `]`.
    static func withoutPort(_ uri: String) -> (String, Substring?) {
        guard let slashes = uri.range(of: "//") else { return (uri, nil) }
        let authorityEnd = uri[slashes.upperBound...].firstIndex { "/?#".contains($0) } ?? uri.endIndex
        let authority = uri[slashes.upperBound..<authorityEnd]
        let hostEnd = authority.lastIndex(of: "]") ?? authority.startIndex
        guard let colon = authority[hostEnd...].lastIndex(of: ":") else { return (uri, nil) }
        return (String(uri[..<colon] + uri[authorityEnd...]), authority[authority.index(after: colon)...])
    }

    /// The string with `:port` put after its authority.
    static func with(_ uri: String, port: String) -> String {
        guard let slashes = uri.range(of: "//") else { return uri }
        let authorityEnd = uri[slashes.upperBound...].firstIndex { "/?#".contains($0) } ?? uri.endIndex
        return String(uri[..<authorityEnd]) + ":\(port)" + uri[authorityEnd...]
    }

    /// 1 to 65535 in decimal, no leading zero.
    static func isPort(_ text: Substring) -> Bool {
        guard let number = Int(text), text.allSatisfy(\.isASCII), text.first != "0", text.first != "+" else { return false }
        return (1...65535).contains(number)
    }
}
