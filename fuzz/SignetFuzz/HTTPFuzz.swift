import SignetHTTP

/// The request path as the server runs it, without the socket: input is laid out like an HTTP/1.1
/// request (`METHOD target` LF, `Name: value` lines, an empty line, the body). The request is built
/// with the server's own `HTTPRequest(wireMethod:requestTarget:…)` and routed through a `Router`
/// holding Signet's route shapes; the handlers read cookies, the query and the form body.
/// Properties: a built request's path starts with the byte `/`, path parameters are never empty, and every
/// request gets a response.
enum HTTPFuzz {
    static let router: Router = {
        let router = Router()
        let handler = HTTPHandler.sync { request in
            _ = request.cookies
            _ = try? request.parsedQuery()
            _ = try? request.form()
            for (_, value) in request.pathParameters { require(!value.isEmpty, "an empty path parameter") }
            return .text("ok\n")
        }
        for path in ["/.well-known/openid-configuration", "/jwks.json", "/authorize", "/userinfo", "/logout", "/signin",
                     "/consent", "/healthz", "/federation/start", "/federation/link"] {
            router.get(path, handler)
            router.post(path, handler)
        }
        for path in ["/token", "/revoke", "/introspect", "/headless/start", "/headless/provider/start", "/native/nonce"] {
            router.post(path, handler)
        }
        router.get("/oauth2/callback/{connection}", handler)
        router.post("/oauth2/callback/{connection}", handler)
        router.get("/admin/{kind}/{id}", handler)
        return router
    }()

    static func run(_ input: [UInt8]) {
        var lines = input.split(separator: 0x0A, maxSplits: 64, omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst() else { return }
        let words = requestLine.split(separator: 0x20, maxSplits: 1)
        guard words.count == 2 else { return }
        var headers = HTTPHeaders()
        var bodyStart = input.endIndex
        while let line = lines.popFirst() {
            let trimmed = line.last == 0x0D ? line.dropLast() : line[...]
            if trimmed.isEmpty {
                bodyStart = lines.first?.startIndex ?? input.endIndex
                break
            }
            guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) else { continue }
            headers.add(String(decoding: trimmed[..<colon], as: UTF8.self),
                        String(decoding: trimmed[(colon + 1)...], as: UTF8.self))
        }
        let body = Array(input[bodyStart...])
        guard let request = HTTPRequest(wireMethod: String(decoding: words[0], as: UTF8.self),
                                        requestTarget: String(decoding: words[1], as: UTF8.self),
                                        headers: headers, body: body, peerAddress: "127.0.0.1", isSecure: false) else { return }
        // On bytes, as the server decides it and the router splits it: `String.hasPrefix` compares
        // characters, and "/" followed by a combining mark (U+07EC, found by this target) is one
        // character that is not "/", while its first byte is.
        require(request.path.utf8.first == UInt8(ascii: "/"), "a request built with a path that does not start with /")
        require(router.respondSynchronously(to: request) != nil, "a request with no response")
    }
}
