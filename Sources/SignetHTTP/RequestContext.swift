import CSignetShims
import SignetMacros

/// What is known about the request being handled, for every line logged and every audit event
/// recorded while it runs: bound by the server around each handler (also across
/// `BlockingWork.run`), read with `RequestContext.current`.
@MemberwiseInit
public struct RequestContext: Sendable, Equatable {
    /// The request id: the one a trusted proxy sent in `X-Request-Id`, or a fresh one; also sent
    /// back in the response's `X-Request-Id`.
    public let requestID: String
    /// The client's address (`HTTPRequest.clientAddress`).
    public let clientAddress: String
    /// The `User-Agent` header as sent, if any.
    public let userAgent: String?

    /// The context of the request this task or thread is handling, if any.
    @TaskLocal public static var current: RequestContext?

    /// The longest incoming `X-Request-Id` honoured.
    public static let maximumIncomingLength = 64

    /// The request id for a request from `peer` with `headers`: the incoming `X-Request-Id` only
    /// when the peer is a trusted proxy and the value is 1 to 64 of `A-Z a-z 0-9 - _ . :` (so it
    /// can go into a log line and a header as it is); otherwise a fresh one.
    static func requestID(peer: String, headers: HTTPHeaders, trustedProxies: TrustedProxies) -> String {
        if let incoming = headers["X-Request-Id"], isAcceptable(incoming),
           let address = IPAddress(peer), trustedProxies.trusts(address) {
            return incoming
        }
        return fresh()
    }

    static func isAcceptable(_ value: String) -> Bool {
        (1...maximumIncomingLength).contains(value.utf8.count) && value.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }
    }

    /// 96 random bits as 24 lowercase hex digits (not a secret: an id to find lines by).
    /// Drawn through a per-thread buffer of `getrandom` output (`signet_buffered_random`): one
    /// system call per 42 ids instead of two per request (bench/README.md, "Session 11 (http)").
    static func fresh() -> String {
        var random: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &random) { raw in
            guard signet_buffered_random(raw.baseAddress, 12) != 0 else { return }
            var generator = SystemRandomNumberGenerator()   // getrandom failed: ask it directly
            raw.storeBytes(of: generator.next() as UInt64, as: UInt64.self)
            raw.storeBytes(of: generator.next() as UInt64, toByteOffset: 8, as: UInt64.self)
        }
        return withUnsafeBytes(of: &random) { raw in
            String(unsafeUninitializedCapacity: 24) { out in
                for index in 0..<12 {
                    out[2 * index] = hexDigit(raw[index] >> 4)
                    out[2 * index + 1] = hexDigit(raw[index] & 0xF)
                }
                return 24
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
