import SignetWire

/// The redirect-URI parser: input is `registered` LF `requested`. Registration either refuses the
/// URI with a message or gives a URI that matches itself; a request matches only the exact string,
/// except on loopback, where only the port may differ (RFC 8252 §7.3).
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
            require(requested.lowercased().hasPrefix("http:"),
                    "a loopback redirect URI matched a non-http URI")
        }
    }
}
