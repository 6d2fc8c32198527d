#if os(Linux)
import CSignetOutbound
import Foundation

/// Outbound HTTP/1.1 on Linux: one connection per call (`Connection: close`), run by the C
/// transport on a thread of its own, which waits in `poll` (no CPU while a provider is slow).
///
/// FoundationNetworking's URLSession is not used here: while a fresh connection waits for its
/// first response, its libcurl/Dispatch loop keeps a core busy (measured: one waiting request ≈
/// 0.85 of a core, 32 ≈ 1.7 cores), so a slow provider would slow down everything else.
package enum OutboundTransport {
    /// Room for the status line and headers on top of the body's size limit.
    static let headerAllowance = 64 * 1024

    static func exchange(method: String, url: URL, body: [UInt8]?, headers: [String: String], userAgent: String,
                         timeLimit: TimeInterval, sizeLimit: Int, trustedCertificatesFile: String?,
                         pinnedKeyHashes: [[UInt8]]) async throws(OutboundError) -> OutboundResponse {
        let target = try Target(url)
        let request = try requestBytes(method: method, target: target, body: body, headers: headers, userAgent: userAgent)
        let raw = await run(target: target, request: request, timeLimit: timeLimit, maxBytes: sizeLimit + headerAllowance,
                            trustedCertificatesFile: trustedCertificatesFile, pins: pinnedKeyHashes.flatMap { $0 })
        return try parse(try raw.get(), sizeLimit: sizeLimit, method: method)
    }

    /// Where to connect, and what to put in the request line; `Host` is derived from them.
    struct Target: Sendable {
        let host: String
        let port: Int
        let tls: Bool
        let requestTarget: String

        init(_ url: URL) throws(OutboundError) {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw .transport("unsupported URL scheme")
            }
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), var host = components.host,
                  !host.isEmpty else { throw .transport("URL without host") }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            tls = scheme == "https"
            port = components.port ?? Self.defaultPort(tls: tls)
            self.host = host
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            requestTarget = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            for text in [host, requestTarget] where text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
                throw .transport("malformed URL")
            }
        }

        /// The scheme's own port: 443 for https, 80 for http.
        static func defaultPort(tls: Bool) -> Int { tls ? 443 : 80 }

        /// The `Host` header (RFC 9110 §7.2): the host, in brackets when it is an IPv6 literal,
        /// and the port unless it is the scheme's own.
        var hostHeader: String {
            let hostPart = host.contains(":") ? "[\(host)]" : host
            return port == Self.defaultPort(tls: tls) ? hostPart : "\(hostPart):\(port)"
        }
    }

    static func requestBytes(method: String, target: Target, body: [UInt8]?, headers: [String: String],
                             userAgent: String) throws(OutboundError) -> [UInt8] {
        var lines = ["\(method) \(target.requestTarget) HTTP/1.1", "Host: \(target.hostHeader)"]
        var names = Set<String>()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let lower = name.lowercased()
            guard !["host", "content-length", "connection", "transfer-encoding"].contains(lower) else { continue }
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }),
                  !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw .transport("malformed request header")
            }
            names.insert(lower)
            lines.append("\(name): \(value)")
        }
        if !names.contains("user-agent") { lines.append("User-Agent: \(userAgent)") }
        if !names.contains("accept") { lines.append("Accept: */*") }
        if !names.contains("accept-encoding") { lines.append("Accept-Encoding: identity") }
        if let body { lines.append("Content-Length: \(body.count)") } else if method == "POST" || method == "PUT" {
            lines.append("Content-Length: 0")
        }
        lines.append("Connection: close")
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + (body ?? [])
    }

    /// One blocking exchange: what `run` calls on its thread. Tests replace it to stand in for a
    /// transport that never returns.
    typealias BlockingExchange = @Sendable (_ target: Target, _ request: [UInt8], _ timeLimit: TimeInterval, _ maxBytes: Int,
                                            _ trustedCertificatesFile: String?, _ pins: [UInt8]) -> Result<[UInt8], OutboundError>

    /// Slack after the time limit before `run` gives up on the exchange's thread.
    static let abandonSlack: TimeInterval = 0.5

    /// Runs the exchange on a new thread (it blocks in `poll`), off the cooperative pool, and
    /// answers at the latest `timeLimit` + `abandonSlack` after the start. The C transport bounds
    /// connecting, TLS, sending and receiving by the deadline, but not name resolution
    /// (`getaddrinfo` blocks as long as the resolver wants): a call whose thread is still busy
    /// then gets `.timeout`, and the thread finishes on its own (everything after the resolver
    /// finds the deadline already passed).
    static func run(target: Target, request: [UInt8], timeLimit: TimeInterval, maxBytes: Int,
                    trustedCertificatesFile: String?, pins: [UInt8],
                    exchange: @escaping BlockingExchange = cExchange) async -> Result<[UInt8], OutboundError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8], OutboundError>, Never>) in
            let first = FirstResult(continuation)
            let thread = Thread { first.offer(exchange(target, request, timeLimit, maxBytes, trustedCertificatesFile, pins)) }
            thread.stackSize = 1 << 20
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeLimit) + abandonSlack) { first.offer(.failure(.timeout)) }
        }
    }

    /// The C transport (`signet_outbound_exchange`), blocking the calling thread.
    @Sendable static func cExchange(target: Target, request: [UInt8], timeLimit: TimeInterval, maxBytes: Int,
                                    trustedCertificatesFile: String?, pins: [UInt8]) -> Result<[UInt8], OutboundError> {
        var response: UnsafeMutablePointer<UInt8>?
        var length = 0
        let code = pins.withUnsafeBufferPointer { pinBytes in
            request.withUnsafeBufferPointer { bytes in
                signet_outbound_exchange(target.host, String(target.port), target.tls ? 1 : 0, trustedCertificatesFile,
                                         pinBytes.baseAddress, pinBytes.count / 32,
                                         bytes.baseAddress, bytes.count, timeLimit, maxBytes, &response, &length)
            }
        }
        defer { signet_outbound_free(response) }
        switch code {
        case 0: return .success(response.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? [])
        case -6: return .failure(.timeout)
        case -7: return .failure(.tooLarge)
        default: return .failure(.transport(reason(code)))
        }
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case -1: "the host name did not resolve"
        case -2: "could not connect"
        case -3: "TLS handshake failed"
        case -4: "the server's certificate is not trusted for this host"
        case -5: "the connection failed"
        case -8: "out of memory"
        case -9: "the server's key is not pinned"
        default: "error \(code)"
        }
    }

    // MARK: parsing

    /// Parses a raw HTTP/1.1 response (skipping 1xx), de-chunks the body and applies the limits.
    /// Byte by byte, never by `Character`: a combining mark after a space or a colon must not hide
    /// it (C's `signet_outbound_response_length` reads the same bytes; the `outbound` fuzz target
    /// checks that the two agree).
    package static func parse(_ raw: [UInt8], sizeLimit: Int, method: String) throws(OutboundError) -> OutboundResponse {
        var start = 0
        while true {
            guard let end = headerEnd(raw, from: start) else { throw .transport("incomplete response") }
            var lines = raw[start..<end].split(separator: [13, 10], omittingEmptySubsequences: false)
            let statusLine = lines.removeFirst().split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            guard statusLine.count >= 2, statusLine[0].starts(with: Array("HTTP/1.".utf8)), statusLine[1].count == 3,
                  let status = decimal(statusLine[1]), (100..<600).contains(status) else { throw .transport("malformed status line") }
            let bodyStart = end + 4
            if (100..<200).contains(status) {
                start = bodyStart
                continue
            }
            var headers: [String: String] = [:]
            for line in lines where !line.isEmpty {
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .transport("malformed header") }
                let name = String(decoding: asciiLowercased(line[..<colon]), as: UTF8.self)
                let value = String(decoding: trimmingBlanks(line[(colon + 1)...]), as: UTF8.self)
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            if [301, 302, 303, 307, 308].contains(status), headers["location"] != nil { throw .redirected }
            let rest = Array(raw[bodyStart...])
            let body: [UInt8]
            if method == "HEAD" || status == 204 || status == 304 {
                body = []
            } else if isChunked(headers) {
                body = try dechunk(rest, sizeLimit: sizeLimit)
            } else if let declared = headers["content-length"] {
                // RFC 9110 §8.6: 1*DIGIT.
                guard let length = decimal(declared.utf8[...]) else { throw .transport("malformed Content-Length") }
                guard length <= sizeLimit else { throw .tooLarge }
                guard rest.count >= length else { throw .transport("response ended early") }
                body = Array(rest.prefix(length))
            } else {
                body = rest
            }
            guard body.count <= sizeLimit else { throw .tooLarge }
            return OutboundResponse(status: status, headers: headers, body: body)
        }
    }

    static func headerEnd(_ raw: [UInt8], from start: Int) -> Int? {
        guard raw.count >= start + 4 else { return nil }
        var index = start
        while index + 3 < raw.count {
            if raw[index] == 13, raw[index + 1] == 10, raw[index + 2] == 13, raw[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// Decodes a chunked body (RFC 9112 §7.1); trailers are ignored. A chunk size is plain hex,
    /// then optional blanks and a `;` extension.
    package static func dechunk(_ bytes: [UInt8], sizeLimit: Int) throws(OutboundError) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = lineEnd(bytes, from: index) else { throw .transport("incomplete chunked body") }
            let line = bytes[index..<lineEnd]
            let digits = line.prefix { hexDigit($0) != nil }
            guard !digits.isEmpty, digits.count <= 10, trimmingBlanks(line[digits.endIndex...]).first.map({ $0 == UInt8(ascii: ";") }) ?? true
            else { throw .transport("malformed chunk") }
            let size = digits.reduce(0) { $0 * 16 + Int(hexDigit($1) ?? 0) }
            index = lineEnd + 2
            if size == 0 { return body }
            guard size <= sizeLimit - body.count else { throw .tooLarge }
            guard index + size + 2 <= bytes.count, bytes[index + size] == 13, bytes[index + size + 1] == 10 else {
                throw .transport("incomplete chunked body")
            }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size + 2
        }
    }

    static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// ASCII decimal digits only (no sign, no blanks), at most 12 of them.
    static func decimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard (1...12).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Whether `Transfer-Encoding` names `chunked`, in any case of its ASCII letters.
    package static func isChunked(_ headers: [String: String]) -> Bool {
        headers["transfer-encoding"].map { asciiLowercased($0.utf8).firstRange(of: Array("chunked".utf8)) != nil } ?? false
    }

    /// A-Z as a-z, every other byte as it is (header names and codings are ASCII, RFC 9110 §5.1).
    static func asciiLowercased<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    /// Without leading and trailing spaces and tabs (RFC 9110 §5.6.3's OWS).
    static func trimmingBlanks(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }
}
#endif
