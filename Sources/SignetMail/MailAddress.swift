/// An address that can stand in an SMTP envelope and a message header as it is.
///
/// Account rules (what an email address is, how it is compared) live with the accounts; this is
/// only what SMTP without the SMTPUTF8 extension carries safely (RFC 5321 §4.1.2): printable
/// ASCII, no spaces, no angle brackets, quotes or other specials that would need quoting, one `@`
/// with a non-empty local part (at most 64 bytes) and domain, at most 254 bytes in all. Anything
/// else is refused here rather than sent mangled; in particular CR and LF can never reach a header.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address, exactly as given.
    public let address: String

    /// Checks `address`; throws `MailError.badAddress` for anything SMTP cannot carry as it is.
    public init(_ address: String) throws(MailError) {
        let bytes = Array(address.utf8)
        guard bytes.count <= 254, let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at <= 64, at < bytes.count - 1,
              bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !Self.specials.contains($0) }),
              bytes.filter({ $0 == UInt8(ascii: "@") }).count == 1,
              bytes[(at + 1)...].first != UInt8(ascii: "."), bytes.last != UInt8(ascii: ".")
        else { throw MailError.badAddress }
        self.address = address
    }

    /// The part after `@`.
    public var domain: Substring { address[address.index(after: address.lastIndex(of: "@") ?? address.startIndex)...] }

    public var description: String { address }

    private static let specials: Set<UInt8> = Set("<>()[]\\,;:\"".utf8)
}
