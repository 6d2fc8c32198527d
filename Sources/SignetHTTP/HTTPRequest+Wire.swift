extension HTTPRequest {
    /// Builds a request from what arrived on the wire: the method token, the request target
    /// (path and query, still percent-encoded), the headers and the body. Nil when the target's
    /// path is not valid percent-encoded UTF-8 or does not start with `/` (the server answers 400).
    ///
    /// The server builds every request through this, and `make fuzz` drives it with arbitrary bytes.
    /// `clientAddress`: the client named by a trusted proxy (`TrustedProxies`), else the peer.
    public init?(wireMethod: String, requestTarget: String, headers: HTTPHeaders, body: [UInt8],
                 peerAddress: String, isSecure: Bool, clientAddress: String? = nil) {
        let rawPath: String, rawQuery: String
        // RFC 9112 §3.2.1: origin-form is an absolute path, optionally followed by "?" and a query.
        if let question = requestTarget.utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawPath = String(requestTarget[..<question])
            rawQuery = String(requestTarget[requestTarget.index(after: question)...])
        } else {
            rawPath = requestTarget
            rawQuery = ""
        }
        guard let path = try? PercentDecoding.decode(rawPath.utf8, plusIsSpace: false), path.utf8.first == UInt8(ascii: "/") else {
            return nil
        }
        self.init(method: HTTPMethod(rawValue: wireMethod), path: path, rawPath: rawPath, rawQuery: rawQuery,
                  headers: headers, body: body, peerAddress: peerAddress, isSecure: isSecure, clientAddress: clientAddress)
    }
}
