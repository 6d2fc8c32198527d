import Foundation
import SignetCrypto

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as authenticator apps make
/// them: HMAC-SHA-1, 6 digits, 30-second steps, a 160-bit secret (RFC 4226 §4 R6).
public struct TOTP: Sendable, Equatable {
    /// The shared secret.
    public let secret: [UInt8]
    /// Digits per code.
    public static let digits = 6
    /// Seconds per step.
    public static let period: Int64 = 30
    /// Steps either side of now that are also accepted (RFC 6238 §5.2: one step of clock drift).
    public static let window: Int64 = 1

    /// A value over `secret`.
    public init(secret: [UInt8]) { self.secret = secret }

    /// A new secret of 20 random bytes.
    public static func generate(random: any RandomSource) -> TOTP { TOTP(secret: random.bytes(20)) }

    /// The step that holds `date`.
    public static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down)) }

    /// The code for a step, zero-padded to `digits` (RFC 4226 §5.3, dynamic truncation).
    public func code(step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac = HMAC.sha1(key: secret, message: counter)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let value = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let text = String(value % 1_000_000)
        return String(repeating: "0", count: Self.digits - text.count) + text
    }

    /// The step a typed code matches within the window around `now`, or nil. Pass the step of the
    /// last accepted code as `after`: a code of that step or an earlier one is refused, so a code
    /// is good once (RFC 6238 §5.2). Spaces in the typed code are ignored; the comparison takes
    /// the same time whatever digit differs.
    public func matchingStep(_ typed: String, at now: Date, after lastStep: Int64?) -> Int64? {
        let digits = Array(typed.utf8.filter { $0 != UInt8(ascii: " ") })
        guard digits.count == Self.digits, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let current = Self.step(at: now)
        var found: Int64?
        for step in (current - Self.window)...(current + Self.window) {
            let matches = constantTimeEquals(Array(code(step: step).utf8), digits)
            if matches, found == nil, lastStep.map({ step > $0 }) ?? true { found = step }
        }
        return found
    }

    /// The `otpauth://totp/` URI an authenticator app reads from a QR code (the Key URI Format
    /// that Google Authenticator defined and the other apps follow).
    public func provisioningURI(issuer: String, account: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func escape(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return "otpauth://totp/\(escape(issuer)):\(escape(account))?secret=\(Base32.encode(secret))&issuer=\(escape(issuer))"
            + "&algorithm=SHA1&digits=\(Self.digits)&period=\(Self.period)"
    }
}
